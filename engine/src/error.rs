//! The typed errors of the engine's calls that fail with a message for a person (a material
//! name, search options, a parameter, a position's invariants, a rules name, a stipulation;
//! a weights file's is `eval::weights_file::WeightsError`, beside its parser, which `build.rs`
//! compiles alone), beside the richer [`crate::FenError`], [`crate::tablebase::TbError`] and
//! [`crate::nnue::NetError`]. Each is its own type, so a caller can tell them apart; each reads
//! as its message and turns into a `String` where a caller only reports it.

use std::fmt;

macro_rules! message_error {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub String);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}

        impl From<String> for $name {
            fn from(message: String) -> $name {
                $name(message)
            }
        }

        impl From<&str> for $name {
            fn from(message: &str) -> $name {
                $name(message.to_string())
            }
        }

        impl From<$name> for String {
            fn from(error: $name) -> String {
                error.0
            }
        }
    };
}

message_error!(
    /// A material name (`KQvK`) that does not name a tablebase material.
    MaterialError
);
message_error!(
    /// Search options refused, or a hash table whose memory cannot be had.
    OptionsError
);
message_error!(
    /// A search parameter's name unknown or its value out of range.
    ParamError
);
message_error!(
    /// A position whose boards, keys or counts disagree (`Position::check_consistency`).
    ConsistencyError
);
message_error!(
    /// A variant or en passant mode name that is not known.
    RulesNameError
);
message_error!(
    /// A stipulation (`h#2`, `ser-#3`, `a=>b4`) that cannot be read.
    StipulationError
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_error_reads_as_its_message() {
        let e = MaterialError::from("no king");
        assert_eq!(e.to_string(), "no king");
        let s: String = e.clone().into();
        assert_eq!(s, "no king");
        assert_ne!(format!("{e:?}"), "no king");
    }
}
