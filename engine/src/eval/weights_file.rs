//! The text format of the evaluation weights file (`engine/data/weights.txt`), which
//! `build.rs` embeds into the engine and `vorpal-tune` writes.
//!
//! ```text
//! # Evaluation weights (where they come from)
//! [Material]
//! 80 112, 280 268, 305 326, 463 555, 985 1018, 0 0
//! [Piece-square (A/B)]
//! ...
//! ```
//!
//! Lines starting with `#` are comments; the first one before any group is the file's note.
//! Each `[name]` line opens a parameter group of `eval/layout.rs` (same names, same order);
//! the lines after it hold that group's (middlegame endgame) pairs, separated by commas.
//! The module uses nothing outside `std`, because `build.rs` compiles it too.

/// One parameter group as read from the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightGroup {
    /// The group's name (the text between the brackets).
    pub name: String,
    /// Its (middlegame, endgame) pairs in file order.
    pub values: Vec<(i32, i32)>,
}

/// A parsed weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFile {
    /// The first comment line's text (without `# `), empty when there is none.
    pub note: String,
    /// The groups in file order.
    pub groups: Vec<WeightGroup>,
}

impl WeightsFile {
    /// All pairs of all groups in order: the flat parameter table.
    pub fn flat(&self) -> Vec<(i32, i32)> {
        self.groups.iter().flat_map(|g| g.values.iter().copied()).collect()
    }
}

/// A weights file that cannot be read: the line (1-based) and what is wrong there. (Defined
/// here, not with the engine's other errors in `error.rs`, because `build.rs` compiles this
/// module alone.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightsError {}

impl From<String> for WeightsError {
    fn from(message: String) -> WeightsError {
        WeightsError(message)
    }
}

impl From<WeightsError> for String {
    fn from(error: WeightsError) -> String {
        error.0
    }
}

/// Parses the file's syntax; errors name the line (1-based) and what is wrong there.
pub fn parse(text: &str) -> Result<WeightsFile, WeightsError> {
    let mut note = String::new();
    let mut groups: Vec<WeightGroup> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if groups.is_empty() && note.is_empty() {
                note = comment.trim().to_string();
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("line {number}: a group line must end with ']': {line}"))?;
            groups.push(WeightGroup {
                name: name.trim().to_string(),
                values: Vec::new(),
            });
            continue;
        }
        let group = groups
            .last_mut()
            .ok_or_else(|| format!("line {number}: weights before the first [group] line"))?;
        for cell in line.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            group
                .values
                .push(parse_pair(cell).map_err(|e| format!("line {number}: {e}"))?);
        }
    }
    Ok(WeightsFile { note, groups })
}

/// One "mg eg" cell.
fn parse_pair(cell: &str) -> Result<(i32, i32), String> {
    let mut numbers = cell.split_whitespace().map(|t| {
        t.parse::<i32>()
            .ok()
            .filter(|v| (-i16::MAX as i32..=i16::MAX as i32).contains(v))
    });
    match (numbers.next(), numbers.next(), numbers.next()) {
        (Some(Some(mg)), Some(Some(eg)), None) => Ok((mg, eg)),
        _ => Err(format!(
            "'{cell}' is not a pair of integers 'middlegame endgame' (each within ±{})",
            i16::MAX
        )),
    }
}

/// Parses the file and checks it against the expected layout: `groups` lists (name, first
/// index, length) in table order, as `eval/layout.rs` declares them.
pub fn parse_checked(text: &str, groups: &[(&str, usize, usize)]) -> Result<WeightsFile, WeightsError> {
    let file = parse(text)?;
    if file.groups.len() != groups.len() {
        return Err(format!(
            "{} groups in the file, the evaluation has {}",
            file.groups.len(),
            groups.len()
        )
        .into());
    }
    for (got, &(name, _, len)) in file.groups.iter().zip(groups) {
        if got.name != name {
            return Err(format!("group '{}' where the evaluation expects '{name}'", got.name).into());
        }
        if got.values.len() != len {
            return Err(format!(
                "group '{name}' has {} weights, the evaluation expects {len}",
                got.values.len()
            )
            .into());
        }
    }
    Ok(file)
}

/// The file text for the flat table `values` laid out by `groups` (name, first index,
/// length), eight pairs a line, with `note` as its first comment line.
pub fn write(note: &str, groups: &[(&str, usize, usize)], values: &[(i32, i32)]) -> String {
    let mut out = format!("# {}\n", note.trim());
    out.push_str("# Read by engine/build.rs (format: engine/src/eval/weights_file.rs); vorpal-tune rewrites it.\n");
    for &(name, start, len) in groups {
        out.push_str(&format!("[{name}]\n"));
        for row in values[start..start + len].chunks(8) {
            let cells: Vec<String> = row.iter().map(|(mg, eg)| format!("{mg} {eg}")).collect();
            out.push_str(&cells.join(", "));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: [(&str, usize, usize); 2] = [("One", 0, 2), ("Two", 2, 9)];

    #[test]
    fn written_text_parses_back() {
        let values: Vec<(i32, i32)> = (0..11).map(|i| (i * 7 - 30, -i * 3)).collect();
        let text = write("test weights", &LAYOUT, &values);
        let file = parse_checked(&text, &LAYOUT).unwrap();
        assert_eq!(file.note, "test weights");
        assert_eq!(file.flat(), values);
        assert_eq!(file.groups[1].name, "Two");
        assert_eq!(write(&file.note, &LAYOUT, &file.flat()), text);
    }

    #[test]
    fn malformed_files_are_refused_with_the_line() {
        let cases = [
            ("[One]\n1 2, 3\n[Two]\n", "line 2: '3' is not a pair"),
            ("1 2\n[One]\n", "line 1: weights before the first [group] line"),
            ("[One\n1 2, 3 4\n", "line 1: a group line must end with ']'"),
            ("[One]\n1 2, 3 x\n", "line 2: '3 x' is not a pair"),
            ("[One]\n1 2, 3 99999\n", "line 2: '3 99999'"),
            ("[One]\n1 2 3\n", "line 2: '1 2 3'"),
        ];
        for (text, message) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.0.starts_with(message), "{text:?}: {err}");
        }
    }

    #[test]
    fn layout_mismatches_are_refused_by_name() {
        let two = |n: usize| (0..n).map(|_| "1 1").collect::<Vec<_>>().join(", ");
        let short = format!("[One]\n{}\n[Two]\n{}\n", two(2), two(8));
        let err = parse_checked(&short, &LAYOUT).unwrap_err();
        assert_eq!(err.0, "group 'Two' has 8 weights, the evaluation expects 9");
        let renamed = format!("[One]\n{}\n[Three]\n{}\n", two(2), two(9));
        let err = parse_checked(&renamed, &LAYOUT).unwrap_err();
        assert_eq!(err.0, "group 'Three' where the evaluation expects 'Two'");
        let missing = format!("[One]\n{}\n", two(2));
        assert_eq!(
            parse_checked(&missing, &LAYOUT).unwrap_err().0,
            "1 groups in the file, the evaluation has 2"
        );
    }
}
