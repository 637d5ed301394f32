//! The deterministic game schedule of a match and its split into shards.
//!
//! Game `g` belongs to pair `g / 2`; the pair's two games use the same opening with the
//! colours swapped. Pairs go through the pairings (round robin or gauntlet) and then advance
//! to the next opening of the (possibly seed-shuffled) opening order, wrapping around the book.
//! A shard `i/n` plays the pairs `p` with `p % n == i`, so the two games of a pair always land
//! in the same shard and every shard's output can be merged back into the full match.

/// Which engines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Game number (0-based) in the whole match.
    pub id: u64,
    /// Pair number.
    pub pair: u64,
    /// Round (1-based): one pass over the pairings with one opening.
    pub round: u64,
    /// Index of the white engine.
    pub white: usize,
    /// Index of the black engine.
    pub black: usize,
    /// Index of the opening in the book.
    pub opening: usize,
}

/// The schedule of a whole match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    rounds: u64,
    order: Vec<usize>,
}

impl Schedule {
    /// `rounds` rounds of `pairings` for `engines` engines; round `r` uses opening
    /// `order[r % order.len()]`.
    pub fn new(engines: usize, tournament: Tournament, rounds: u64, order: Vec<usize>) -> Schedule {
        let pairings = match tournament {
            Tournament::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
            Tournament::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
        };
        Schedule {
            pairings,
            rounds,
            order,
        }
    }

    /// Games in the whole match.
    pub fn total_games(&self) -> u64 {
        self.rounds * self.pairings.len() as u64 * 2
    }

    /// Game `id`.
    pub fn game(&self, id: u64) -> ScheduledGame {
        let pair = id / 2;
        let n = self.pairings.len() as u64;
        let round = pair / n;
        let (a, b) = self.pairings[(pair % n) as usize];
        let (white, black) = if id.is_multiple_of(2) { (a, b) } else { (b, a) };
        ScheduledGame {
            id,
            pair,
            round: round + 1,
            white,
            black,
            opening: self.order[(round % self.order.len() as u64) as usize],
        }
    }

    /// The games of shard `index` of `count`, in order.
    pub fn shard(&self, index: usize, count: usize) -> Vec<ScheduledGame> {
        (0..self.total_games())
            .filter(|id| (id / 2) % count as u64 == index as u64)
            .map(|id| self.game(id))
            .collect()
    }
}

/// Parses `i/n` with `i < n`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("--shard expects i/n, found '{text}'"))?;
    let i: usize = i.parse().map_err(|_| format!("bad shard index '{i}'"))?;
    let n: usize = n.parse().map_err(|_| format!("bad shard count '{n}'"))?;
    if n == 0 || i >= n {
        return Err(format!("--shard {text}: need 0 <= i < n"));
    }
    Ok((i, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_share_the_opening() {
        let s = Schedule::new(2, Tournament::RoundRobin, 3, vec![2, 0, 1]);
        assert_eq!(s.total_games(), 6);
        let g: Vec<_> = (0..6).map(|i| s.game(i)).collect();
        assert_eq!((g[0].white, g[0].black, g[0].opening), (0, 1, 2));
        assert_eq!((g[1].white, g[1].black, g[1].opening), (1, 0, 2));
        assert_eq!((g[2].opening, g[4].opening, g[5].round), (0, 1, 3));
    }

    #[test]
    fn round_robin_gauntlet_and_shards() {
        let s = Schedule::new(3, Tournament::RoundRobin, 2, vec![0]);
        assert_eq!(s.total_games(), 12);
        let g = s.game(5);
        assert_eq!((g.white, g.black, g.pair, g.round), (2, 1, 2, 1));
        let s = Schedule::new(3, Tournament::Gauntlet, 2, vec![0, 1]);
        assert_eq!(s.total_games(), 8);
        assert!((0..8).all(|i| s.game(i).white == 0 || s.game(i).black == 0));
        let mut all: Vec<u64> = (0..3).flat_map(|i| s.shard(i, 3)).map(|g| g.id).collect();
        all.sort();
        assert_eq!(all, (0..8).collect::<Vec<_>>());
        assert!(s.shard(1, 3).iter().all(|g| g.pair % 3 == 1));
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("4/4").is_err());
    }
}
