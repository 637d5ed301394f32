//! Materials named as in chess tablebases (`KQvK`, `KRvKN`, `KQvKP`): the stronger side first,
//! pieces strongest first. A table of material `M` holds the positions where White has the first
//! side's pieces; the same material with colours exchanged is probed by flipping the colours.

use crate::error::MaterialError;
use crate::types::{Color, Piece, PieceKind};
use std::fmt;

/// The non-king pieces of both sides; White is the stronger (or equal) side when canonical.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// White's pieces besides the king, strongest first.
    pub white: Vec<PieceKind>,
    /// Black's pieces besides the king, strongest first.
    pub black: Vec<PieceKind>,
}

/// The most men (kings included) a table may hold.
pub const MAX_MEN: usize = 5;

/// The most men of a complete set (`--all`) and of a table with pawns: five-man tables are
/// made one pawnless material at a time ([`Material::check_generable`]).
pub const MAX_SET_MEN: usize = 4;

/// Strength order used in names and in the piece order of an index: Q R B N P.
pub(crate) fn kind_rank(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Queen => 1,
        PieceKind::Rook => 2,
        PieceKind::Bishop => 3,
        PieceKind::Knight => 4,
        PieceKind::Pawn => 5,
    }
}

fn sort_side(side: &mut [PieceKind]) {
    side.sort_by_key(|&k| kind_rank(k));
}

/// Which side is stronger: more pieces, then the stronger pieces first.
fn side_key(side: &[PieceKind]) -> (usize, Vec<i8>) {
    (side.len(), side.iter().map(|&k| -(kind_rank(k) as i8)).collect())
}

impl Material {
    /// The material of two piece lists (in any order), colours as given.
    pub fn new(mut white: Vec<PieceKind>, mut black: Vec<PieceKind>) -> Material {
        sort_side(&mut white);
        sort_side(&mut black);
        Material { white, black }
    }

    /// Parses a name such as `KQvKR` (case of the letters ignored, `v` separates the sides).
    pub fn parse(text: &str) -> Result<Material, MaterialError> {
        Material::parse_text(text).map_err(MaterialError)
    }

    fn parse_text(text: &str) -> Result<Material, String> {
        let upper = text.trim().to_ascii_uppercase();
        let (w, b) = upper
            .split_once('V')
            .ok_or_else(|| format!("material {text:?}: expected two sides joined by 'v', as in KQvK"))?;
        let side = |s: &str| -> Result<Vec<PieceKind>, String> {
            let rest = s
                .strip_prefix('K')
                .ok_or_else(|| format!("material {text:?}: each side starts with its king K"))?;
            rest.chars()
                .map(|c| match PieceKind::from_letter(c) {
                    Some(PieceKind::King) | None => Err(format!("material {text:?}: unknown piece letter {c:?}")),
                    Some(k) => Ok(k),
                })
                .collect()
        };
        let m = Material::new(side(w)?, side(b)?);
        if m.men() > MAX_MEN {
            return Err(format!("material {text:?}: {} men, tables go up to {MAX_MEN}", m.men()));
        }
        Ok(m)
    }

    /// Whether the generator can make this material's table: up to [`MAX_SET_MEN`] men, or
    /// five men without pawns (a five-man table with pawns would need 32 king slots, 17 GB).
    pub fn check_generable(&self) -> Result<(), String> {
        if self.men() <= MAX_SET_MEN || (self.men() == MAX_MEN && !self.has_pawns()) {
            return Ok(());
        }
        Err(format!(
            "{self}: five-man tables with pawns are not made (only pawnless five-man tables; with pawns they go up to {MAX_SET_MEN} men)"
        ))
    }

    /// Men on the board, kings included.
    pub fn men(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// True when a pawn is part of the material.
    pub fn has_pawns(&self) -> bool {
        self.white.contains(&PieceKind::Pawn) || self.black.contains(&PieceKind::Pawn)
    }

    /// Number of pawns.
    pub fn pawns(&self) -> usize {
        self.white
            .iter()
            .chain(&self.black)
            .filter(|&&k| k == PieceKind::Pawn)
            .count()
    }

    /// True when White is the stronger side (or the sides are equal): the form tables are stored in.
    pub fn is_canonical(&self) -> bool {
        side_key(&self.white) >= side_key(&self.black)
    }

    /// The same material with colours exchanged.
    pub fn flipped(&self) -> Material {
        Material {
            white: self.black.clone(),
            black: self.white.clone(),
        }
    }

    /// The canonical form and whether colours had to be exchanged to reach it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (self.clone(), false)
        } else {
            (self.flipped(), true)
        }
    }

    /// The pieces in index order: White's king, Black's king, White's pieces, Black's pieces.
    pub(crate) fn pieces(&self) -> Vec<Piece> {
        let mut v = vec![
            Piece::new(Color::White, PieceKind::King),
            Piece::new(Color::Black, PieceKind::King),
        ];
        v.extend(self.white.iter().map(|&k| Piece::new(Color::White, k)));
        v.extend(self.black.iter().map(|&k| Piece::new(Color::Black, k)));
        v
    }

    /// Every canonical material of exactly `men` men (kings included), in name order.
    pub fn all_of(men: usize) -> Vec<Material> {
        let mut out = Vec::new();
        if men < 2 {
            return out;
        }
        let extra = men - 2;
        let kinds = [
            PieceKind::Queen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Pawn,
        ];
        // All multisets of size n over `kinds`.
        fn multisets(
            kinds: &[PieceKind],
            n: usize,
            start: usize,
            cur: &mut Vec<PieceKind>,
            out: &mut Vec<Vec<PieceKind>>,
        ) {
            if cur.len() == n {
                out.push(cur.clone());
                return;
            }
            for i in start..kinds.len() {
                cur.push(kinds[i]);
                multisets(kinds, n, i, cur, out);
                cur.pop();
            }
        }
        for w in (0..=extra).rev() {
            let (mut ws, mut bs) = (Vec::new(), Vec::new());
            multisets(&kinds, w, 0, &mut Vec::new(), &mut ws);
            multisets(&kinds, extra - w, 0, &mut Vec::new(), &mut bs);
            for a in &ws {
                for b in &bs {
                    let m = Material::new(a.clone(), b.clone());
                    if m.is_canonical() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// Every canonical material of 3 up to `men` men, in generation order (a table comes after
    /// every table its captures and promotions lead to).
    pub fn all_up_to(men: usize) -> Vec<Material> {
        let mut all: Vec<Material> = (3..=men.min(MAX_MEN)).flat_map(Material::all_of).collect();
        Material::sort_for_generation(&mut all);
        all
    }

    /// `list` with every table its materials lead to (by captures and promotions, again and
    /// again), in generation order: what must be made to make `list`.
    pub fn with_successors(list: &[Material]) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        let mut todo: Vec<Material> = list.iter().map(|m| m.canonical().0).collect();
        while let Some(m) = todo.pop() {
            if !out.contains(&m) {
                todo.extend(m.successors());
                out.push(m);
            }
        }
        Material::sort_for_generation(&mut out);
        out
    }

    /// Sorts materials so that each comes after those it converts into: fewer men first, then
    /// fewer pawns.
    pub fn sort_for_generation(list: &mut [Material]) {
        list.sort_by_key(|m| (m.men(), m.pawns(), m.to_string()));
    }

    /// The materials (canonical) that a capture or a promotion from this one leads to, with at
    /// least three men (two bare kings are a draw without a table).
    pub fn successors(&self) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        let mut push = |m: Material| {
            let (c, _) = m.canonical();
            if c.men() >= 3 && !out.contains(&c) {
                out.push(c);
            }
        };
        for side in 0..2 {
            let (own, other) = if side == 0 {
                (&self.white, &self.black)
            } else {
                (&self.black, &self.white)
            };
            // A capture of one of `other`'s pieces.
            for i in 0..other.len() {
                let mut o = other.clone();
                o.remove(i);
                push(if side == 0 {
                    Material::new(own.clone(), o)
                } else {
                    Material::new(o, own.clone())
                });
            }
            // A promotion, with or without a capture.
            if let Some(p) = own.iter().position(|&k| k == PieceKind::Pawn) {
                for promo in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight] {
                    let mut mine = own.clone();
                    mine[p] = promo;
                    for cap in 0..=other.len() {
                        let mut o = other.clone();
                        if cap < other.len() {
                            o.remove(cap);
                        }
                        push(if side == 0 {
                            Material::new(mine.clone(), o)
                        } else {
                            Material::new(o, mine.clone())
                        });
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = |s: &[PieceKind]| s.iter().map(|k| k.letter()).collect::<String>();
        write!(f, "K{}vK{}", letters(&self.white), letters(&self.black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_stronger_side_first() {
        assert_eq!(Material::parse("KQvKR").unwrap().to_string(), "KQvKR");
        assert_eq!(Material::parse("krvkq").unwrap().to_string(), "KRvKQ");
        assert!(!Material::parse("KRvKQ").unwrap().is_canonical());
        assert_eq!(Material::parse("KRvKQ").unwrap().canonical().0.to_string(), "KQvKR");
        assert_eq!(Material::parse("KNQvK").unwrap().to_string(), "KQNvK");
        assert!(Material::parse("KQK").is_err());
        assert!(Material::parse("KXvK").is_err());
        assert!(Material::parse("KQRBvK").unwrap().check_generable().is_ok());
        assert!(Material::parse("KQRBvKN").is_err());
        assert!(Material::parse("KNNvKN").unwrap().check_generable().is_ok());
        assert!(Material::parse("KRPvKN").unwrap().check_generable().is_err());
        assert!(Material::parse("KRPvK").unwrap().check_generable().is_ok());
    }

    #[test]
    fn every_material_is_counted_once() {
        assert_eq!(Material::all_of(3).len(), 5);
        assert_eq!(Material::all_of(4).len(), 30);
        let all = Material::all_up_to(4);
        for (i, m) in all.iter().enumerate() {
            for s in m.successors() {
                let j = all.iter().position(|x| *x == s).expect("successor listed");
                assert!(j < i, "{s} must come before {m}");
            }
        }
    }
}
