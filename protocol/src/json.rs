//! Just enough JSON for `analyze --json`: one object per line, built field by field.

use std::fmt::Write;

/// A JSON object under construction.
#[derive(Default)]
pub struct Object(String);

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    fn key(&mut self, key: &str) {
        self.0.push(if self.0.is_empty() { '{' } else { ',' });
        self.0.push_str(&quote(key));
        self.0.push(':');
    }

    /// Adds a string field.
    pub fn str(mut self, key: &str, value: &str) -> Object {
        self.key(key);
        self.0.push_str(&quote(value));
        self
    }

    /// Adds a number field.
    pub fn num(mut self, key: &str, value: impl Into<i128>) -> Object {
        self.key(key);
        let _ = write!(self.0, "{}", value.into());
        self
    }

    /// Adds a field holding raw JSON (an object or array built elsewhere).
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        self.key(key);
        self.0.push_str(json);
        self
    }

    /// Adds an array of strings.
    pub fn strs(self, key: &str, values: &[String]) -> Object {
        let items: Vec<String> = values.iter().map(|v| quote(v)).collect();
        self.raw(key, &format!("[{}]", items.join(",")))
    }

    /// The finished text.
    pub fn finish(mut self) -> String {
        if self.0.is_empty() {
            self.0.push('{');
        }
        self.0.push('}');
        self.0
    }
}

/// A JSON string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects() {
        let o = Object::new()
            .str("a", "x\"y")
            .num("n", -3)
            .strs("pv", &["e2e4".into()])
            .finish();
        assert_eq!(o, r#"{"a":"x\"y","n":-3,"pv":["e2e4"]}"#);
        assert_eq!(Object::new().finish(), "{}");
        assert_eq!(quote("\u{1}"), "\"\\u0001\"");
    }
}
