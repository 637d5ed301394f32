//! Where each evaluation parameter sits in the flat table: named index ranges. Plain
//! constants without imports, so `build.rs` reads the same layout to check the weights file.

/// Named ranges of the parameter table: (name, first index, length).
pub const GROUPS: [(&str, usize, usize); 16] = [
    ("Material", MATERIAL, 6),
    ("Piece-square (A/B)", PST, 2 * 6 * 64),
    ("Knight mobility", MOBILITY_KNIGHT, 9),
    ("Bishop mobility", MOBILITY_BISHOP, 14),
    ("Rook mobility", MOBILITY_ROOK, 15),
    ("Queen mobility", MOBILITY_QUEEN, 28),
    ("Passed pawns", PASSED, 8),
    ("Blocked passer", PASSED_BLOCKED, 1),
    ("Landing checks", LANDING_CHECK, 6),
    ("King-zone attackers", ZONE_ATTACKER, 6),
    ("Unsafe flight squares", UNSAFE_FLIGHT, 1),
    ("Interposers", INTERPOSER, 1),
    ("Hanging pieces", HANGING, 6),
    ("Threat by lesser piece", THREAT_BY_LESSER, 6),
    ("Bishop pair", BISHOP_PAIR, 1),
    ("Tempo", TEMPO, 1),
];

/// Piece values by kind (king unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables: [board][kind][square from White's side].
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by count of landing squares.
pub const MOBILITY_KNIGHT: usize = PST + 2 * 6 * 64;
/// Bishop mobility.
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility.
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility.
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// Passed pawn by relative rank.
pub const PASSED: usize = MOBILITY_QUEEN + 28;
/// Passed pawn whose stop square is occupied on either board.
pub const PASSED_BLOCKED: usize = PASSED + 8;
/// Enemy pieces on the other board that can land with check, by kind (penalty side = king owner).
pub const LANDING_CHECK: usize = PASSED_BLOCKED + 1;
/// Enemy pieces on the king's board attacking the king zone, by kind.
pub const ZONE_ATTACKER: usize = LANDING_CHECK + 6;
/// King flight squares attacked on either board.
pub const UNSAFE_FLIGHT: usize = ZONE_ATTACKER + 6;
/// Own pieces on the other board able to land next to the king.
pub const INTERPOSER: usize = UNSAFE_FLIGHT + 1;
/// Pieces attacked on their board with no recapture from the other board, by kind.
pub const HANGING: usize = INTERPOSER + 1;
/// Pieces attacked by an enemy piece of lower value, by kind.
pub const THREAT_BY_LESSER: usize = HANGING + 6;
/// Two bishops.
pub const BISHOP_PAIR: usize = THREAT_BY_LESSER + 6;
/// Side to move.
pub const TEMPO: usize = BISHOP_PAIR + 1;
/// Number of parameters.
pub const NUM_PARAMS: usize = TEMPO + 1;
