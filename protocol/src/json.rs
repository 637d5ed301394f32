//! The JSON lines of `analyze --json` and `solve --json`: objects whose fields keep the order
//! they were added in, written by `serde_json`.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A JSON object under construction; its fields are written in the order they were added.
#[derive(Default)]
pub struct Object(Vec<(String, Field)>);

/// One field's value: plain JSON, or objects that keep their own field order.
enum Field {
    Value(Value),
    Object(Object),
    Objects(Vec<Object>),
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds a field holding any JSON value.
    pub fn value(mut self, key: &str, value: impl Into<Value>) -> Object {
        self.0.push((key.to_string(), Field::Value(value.into())));
        self
    }

    /// Adds a string field.
    pub fn str(self, key: &str, value: &str) -> Object {
        self.value(key, value)
    }

    /// Adds a number field.
    pub fn num(self, key: &str, value: impl Into<i128>) -> Object {
        let value = value.into();
        let number = match (i64::try_from(value), u64::try_from(value)) {
            (Ok(n), _) => Value::from(n),
            (_, Ok(n)) => Value::from(n),
            // Beyond 64 bits (never reached by counts of nodes or milliseconds): a float.
            _ => Value::from(value as f64),
        };
        self.value(key, number)
    }

    /// Adds an array of strings.
    pub fn strs(self, key: &str, values: &[String]) -> Object {
        self.value(key, values)
    }

    /// Adds a field holding an object.
    pub fn object(mut self, key: &str, object: Object) -> Object {
        self.0.push((key.to_string(), Field::Object(object)));
        self
    }

    /// Adds an array of objects.
    pub fn objects(mut self, key: &str, objects: Vec<Object>) -> Object {
        self.0.push((key.to_string(), Field::Objects(objects)));
        self
    }

    /// The finished text.
    pub fn finish(self) -> String {
        serde_json::to_string(&self).expect("a JSON object of strings and numbers always serializes")
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Value(value) => value.serialize(serializer),
            Field::Object(object) => object.serialize(serializer),
            Field::Objects(objects) => objects.serialize(serializer),
        }
    }
}

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, field) in &self.0 {
            map.serialize_entry(key, field)?;
        }
        map.end()
    }
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
        assert_eq!(Object::new().str("s", "\u{1}").finish(), r#"{"s":"\u0001"}"#);
    }
}
