//! Loading tables on demand and probing positions.

use super::disk::{self, DiskTable};
use super::file::{self, Metric};
use super::index::Layout;
use super::material::{Material, MAX_MEN, MAX_SET_MEN};
use super::setup::Setup;
use super::{TbError, DRAW, INVALID};
use crate::position::CastlingRights;
use crate::rules::{EnPassant, Variant};
use crate::types::{BoardId, Color, Move, Piece, PieceKind};
use crate::Position;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move mates by force.
    Win,
    /// Neither side can force mate.
    Draw,
    /// The side to move is mated by force.
    Loss,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to mate with best play (0: the side to move is mated now); `None` for a draw.
    pub plies: Option<u32>,
}

impl Probe {
    pub(crate) fn from_entry(v: u8) -> Probe {
        if v == DRAW || v == INVALID {
            return Probe {
                wdl: Wdl::Draw,
                plies: None,
            };
        }
        let plies = v as u32 - 1;
        Probe {
            wdl: if plies % 2 == 1 { Wdl::Win } else { Wdl::Loss },
            plies: Some(plies),
        }
    }

    /// Distance to mate in moves as problemists count: a win in `n` is mate in `n` moves of the
    /// winner; a loss in `n` means the opponent mates in `n` (0: mated now).
    pub fn dtm(&self) -> Option<u32> {
        self.plies.map(|p| p.div_ceil(2))
    }

    /// True when the fifty-move rule could turn this win into a draw: the mate is more than
    /// 50 moves away (from a clock at zero, a mate within 50 moves of the winner is never
    /// stopped by the rule).
    pub fn fifty_move_risk(&self) -> bool {
        !self.mate_within_clock(0)
    }

    /// True when the fifty-move rule cannot stop this result from a position whose clock
    /// stands at `halfmove_clock`: a draw, or a mate before the clock reaches 100 plies.
    pub fn mate_within_clock(&self, halfmove_clock: u16) -> bool {
        self.plies
            .is_none_or(|plies| within_fifty_move_clock(plies, halfmove_clock))
    }
}

/// True when something `plies` away (a mate, a capture or pawn move) comes before a
/// fifty-move clock standing at `halfmove_clock` reaches 100 plies.
pub fn within_fifty_move_clock(plies: u32, halfmove_clock: u16) -> bool {
    u32::from(halfmove_clock) + plies <= 100
}

/// One legal move and the value of the position it leads to, for the side that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveProbe {
    /// The move.
    pub mv: Move,
    /// Its value for the mover: a win in `n` when it leads to a loss in `n - 1`, and so on.
    pub result: Probe,
}

/// One loaded table: its two value arrays (White, Black to move) in file layout, in memory
/// (up to four men) or read from the file entry by entry (five men).
pub(crate) struct Table {
    layout: Layout,
    values: Values,
}

enum Values {
    Memory([Vec<u8>; 2]),
    Disk(DiskTable),
}

impl Table {
    pub(crate) fn new(material: &Material, values: [Vec<u8>; 2]) -> Table {
        Table {
            layout: Layout::new(material),
            values: Values::Memory(values),
        }
    }

    pub(crate) fn on_disk(material: &Material, disk: DiskTable) -> Table {
        Table {
            layout: Layout::new(material),
            values: Values::Disk(disk),
        }
    }

    /// The entry of `s` (men in index order of this table's material).
    #[inline(always)]
    pub(crate) fn entry(&self, s: &mut Setup) -> u8 {
        let i = self.layout.file_index(s);
        match &self.values {
            Values::Memory(v) => v[s.stm.index()][i],
            Values::Disk(d) => d.entry(s.stm.index(), i),
        }
    }
}

/// Finds the table of a canonical material (`None`: not available).
pub(crate) type TableLookup<'a> = &'a mut dyn FnMut(&Material) -> Result<Option<Arc<Table>>, TbError>;

/// The entry of any setup of up to four men from a lookup of canonical materials.
pub(crate) fn entry_of(s: &Setup, table_of: TableLookup<'_>) -> Result<Option<u8>, TbError> {
    if s.men == 2 {
        return Ok(Some(DRAW));
    }
    let side = |c: Color| -> Vec<PieceKind> {
        (0..s.men)
            .map(|i| s.pieces[i])
            .filter(|p| p.color() == c && p.kind() != PieceKind::King)
            .map(|p| p.kind())
            .collect()
    };
    let (canon, flip) = Material::new(side(Color::White), side(Color::Black)).canonical();
    let Some(table) = table_of(&canon)? else {
        return Ok(None);
    };
    let mut t = if flip {
        s.color_flipped()
    } else {
        let mut c = *s;
        c.normalize();
        c
    };
    Ok(Some(table.entry(&mut t)))
}

/// The setup of a position, or why the tables do not apply to it (`Ok(None)`: too many men).
pub(crate) fn setup_of(pos: &Position) -> Result<Option<Setup>, TbError> {
    let rules = pos.rules();
    if rules.variant != Variant::Alice || rules.ep_mode() != EnPassant::Off || rules.is_chess960() {
        return Err(TbError::Rules(format!(
            "the tables are for {}: this position is played under another variant or en passant option",
            file::RULES
        )));
    }
    if pos.castling() != CastlingRights::NONE {
        return Err(TbError::Rules("the tables assume no castling rights".into()));
    }
    if pos.piece_count() as usize > MAX_MEN {
        return Ok(None);
    }
    let mut s = Setup::empty(pos.side_to_move());
    for (b, board) in [BoardId::A, BoardId::B].into_iter().enumerate() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let mut bb = pos.pieces(board, color, kind);
                while let Some(q) = bb.pop() {
                    s.pieces[s.men] = Piece::new(color, kind);
                    s.cells[s.men] = (b as u8) << 6 | q.index() as u8;
                    s.men += 1;
                }
            }
        }
    }
    s.normalize();
    Ok(Some(s))
}

enum Slot {
    Loaded(Arc<Table>),
    Missing,
    Failed(TbError),
}

/// A directory of tables, loaded on demand and kept in memory.
pub struct Tablebases {
    dir: PathBuf,
    tables: Mutex<HashMap<(Material, Metric), Slot>>,
    /// Whether the directory holds a five-man table: without one, five-man positions are
    /// answered at once, without a lookup per node.
    five_men: AtomicBool,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Tablebases {
    /// Tables in `dir` (the directory must exist; files are read when first needed).
    pub fn open(dir: &Path) -> Result<Tablebases, TbError> {
        if !dir.is_dir() {
            return Err(TbError::Io(format!("{}: not a directory", dir.display())));
        }
        let tb = Tablebases {
            dir: dir.to_path_buf(),
            tables: Mutex::new(HashMap::new()),
            five_men: AtomicBool::new(false),
        };
        let five = tb.available().iter().any(|m| m.men() > MAX_SET_MEN);
        tb.five_men.store(five, Relaxed);
        Ok(tb)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The materials whose files are in the directory (not yet checked).
    pub fn available(&self) -> Vec<Material> {
        let mut v: Vec<Material> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let m = Material::parse(name.strip_suffix(".vtb")?).ok()?;
                (m.is_canonical() && file::file_name(&m) == name).then_some(m)
            })
            .collect();
        Material::sort_for_generation(&mut v);
        v
    }

    /// Makes a freshly generated table available without reading it back.
    pub(crate) fn insert(&self, material: &Material, table: Table) {
        if material.men() > MAX_SET_MEN {
            self.five_men.store(true, Relaxed);
        }
        self.lock()
            .insert((material.clone(), Metric::Dtm), Slot::Loaded(Arc::new(table)));
    }

    /// Makes a freshly generated distance-to-zeroing table available.
    pub(crate) fn insert_dtz(&self, material: &Material, table: Table) {
        self.lock()
            .insert((material.clone(), Metric::Dtz), Slot::Loaded(Arc::new(table)));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(Material, Metric), Slot>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The table of a canonical material: `None` when its file is absent; an error (kept, and
    /// given again) when the file is damaged or of another version.
    pub(crate) fn table(&self, material: &Material) -> Result<Option<Arc<Table>>, TbError> {
        self.table_of(material, Metric::Dtm)
    }

    /// The table of `metric` of a canonical material, as [`Tablebases::table`].
    fn table_of(&self, material: &Material, metric: Metric) -> Result<Option<Arc<Table>>, TbError> {
        let key = (material.clone(), metric);
        if let Some(slot) = self.lock().get(&key) {
            return match slot {
                Slot::Loaded(t) => Ok(Some(t.clone())),
                Slot::Missing => Ok(None),
                Slot::Failed(e) => Err(e.clone()),
            };
        }
        let path = file::path_for(&self.dir, material, metric);
        let slot = if !path.exists() {
            Slot::Missing
        } else if material.men() > MAX_SET_MEN {
            let layout = Layout::new(material);
            match DiskTable::open(&path, material, layout.file_size(), metric) {
                Ok(d) => Slot::Loaded(Arc::new(Table::on_disk(material, d))),
                Err(e) => Slot::Failed(e),
            }
        } else {
            let layout = Layout::new(material);
            match file::read(&path, material, layout.file_size(), metric) {
                Ok(values) => Slot::Loaded(Arc::new(Table::new(material, values))),
                Err(e) => Slot::Failed(e),
            }
        };
        let result = match &slot {
            Slot::Loaded(t) => Ok(Some(t.clone())),
            Slot::Missing => Ok(None),
            Slot::Failed(e) => Err(e.clone()),
        };
        self.lock().insert(key, slot);
        result
    }

    /// Whether the table of the canonical `material` is present and sound (loading it; a
    /// five-man file, read entry by entry when probed, is read whole here for its checksum).
    pub fn check(&self, material: &Material) -> Result<bool, TbError> {
        if self.table(material)?.is_none() {
            return Ok(false);
        }
        if material.men() > MAX_SET_MEN && !disk::checksum_ok(&file::path_in(&self.dir, material))? {
            let path = file::path_in(&self.dir, material);
            return Err(TbError::Damaged(format!(
                "{}: checksum mismatch (the file is damaged)",
                path.display()
            )));
        }
        Ok(true)
    }

    /// The canonical material of `pos` when it has at most [`MAX_MEN`] men.
    pub fn material_of(pos: &Position) -> Option<Material> {
        if pos.piece_count() as usize > MAX_MEN {
            return None;
        }
        let side = |c: Color| -> Vec<PieceKind> {
            PieceKind::NON_KING
                .iter()
                .flat_map(|&k| std::iter::repeat_n(k, pos.pieces_both(c, k).count() as usize))
                .collect()
        };
        Some(Material::new(side(Color::White), side(Color::Black)).canonical().0)
    }

    pub(crate) fn entry(&self, s: &Setup) -> Result<Option<u8>, TbError> {
        if s.men > MAX_SET_MEN && !self.five_men.load(Relaxed) {
            return Ok(None);
        }
        entry_of(s, &mut |m| self.table(m))
    }

    /// The value of `pos` for the side to move: `Ok(None)` when it has more men than the tables
    /// or its table is not in the directory; an error when the rules differ from the tables'
    /// or the file is damaged.
    pub fn probe(&self, pos: &Position) -> Result<Option<Probe>, TbError> {
        let Some(s) = setup_of(pos)? else {
            return Ok(None);
        };
        Ok(self.entry(&s)?.map(Probe::from_entry))
    }

    /// The distance in plies to the next capture, pawn move or mate of a won or lost `pos` under the
    /// play that minimises it for the winner and maximises it for the loser, when the
    /// material has a distance-to-zeroing file (materials whose mates can exceed fifty
    /// moves); `Ok(None)` otherwise and for a draw.
    pub fn probe_dtz(&self, pos: &Position) -> Result<Option<u32>, TbError> {
        let Some(s) = setup_of(pos)? else {
            return Ok(None);
        };
        if s.men > MAX_SET_MEN && !self.five_men.load(Relaxed) {
            return Ok(None);
        }
        let entry = entry_of(&s, &mut |m| self.table_of(m, Metric::Dtz))?;
        Ok(entry.and_then(|v| Probe::from_entry(v).plies))
    }

    /// True when the result `p` of `pos` stands under the fifty-move rule: the mate, or else
    /// the next capture or pawn move (from the distance-to-zeroing file, where the material
    /// has one), comes before the clock reaches 100 plies.
    pub fn stands_under_fifty_move_rule(&self, pos: &Position, p: Probe) -> bool {
        let clock = pos.halfmove_clock();
        p.mate_within_clock(clock) || matches!(self.probe_dtz(pos), Ok(Some(z)) if within_fifty_move_clock(z, clock))
    }

    /// Every legal move with its value for the mover, best first (`Ok(None)` as for
    /// [`Tablebases::probe`]).
    pub fn probe_moves(&self, pos: &Position) -> Result<Option<Vec<MoveProbe>>, TbError> {
        if self.probe(pos)?.is_none() {
            return Ok(None);
        }
        let mut out = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let child = pos.after(mv);
            let Some(p) = self.probe(&child)? else {
                return Ok(None);
            };
            let result = match p.wdl {
                Wdl::Win => Probe {
                    wdl: Wdl::Loss,
                    plies: p.plies.map(|x| x + 1),
                },
                Wdl::Loss => Probe {
                    wdl: Wdl::Win,
                    plies: p.plies.map(|x| x + 1),
                },
                Wdl::Draw => p,
            };
            out.push(MoveProbe { mv, result });
        }
        out.sort_by_key(|m| rank(m.result));
        Ok(Some(out))
    }
}

/// Sort key, best for the mover first: quickest wins, draws, slowest losses.
pub(crate) fn rank(p: Probe) -> (u8, i64) {
    match p.wdl {
        Wdl::Win => (0, p.plies.unwrap_or(0) as i64),
        Wdl::Draw => (1, 0),
        Wdl::Loss => (2, -(p.plies.unwrap_or(0) as i64)),
    }
}
