//! Secrets from the operating system's random source: the access token of a server start and
//! the session ids, written in hexadecimal (letters and digits only, so they travel safely in
//! URLs, cookies and headers).

use rand::rngs::OsRng;
use rand::RngCore;

/// Random bits in a session id.
pub const SESSION_BITS: usize = 128;
/// Random bits in a generated access token.
pub const TOKEN_BITS: usize = 192;
/// The environment variable that sets the access token (for scripts).
pub const TOKEN_VARIABLE: &str = "VORPAL_GUI_TOKEN";
/// Shortest token accepted from the environment.
pub const MIN_TOKEN_LEN: usize = 16;

/// `bits` random bits from the operating system as hexadecimal text.
pub fn random_hex(bits: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| format!("the operating system gave no random bytes: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The access token: `VORPAL_GUI_TOKEN` when set (checked), else a new random one.
pub fn access_token(from_env: Option<String>) -> Result<String, String> {
    match from_env {
        Some(t) => {
            let ok_chars = t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if t.len() < MIN_TOKEN_LEN || t.len() > 256 || !ok_chars {
                return Err(format!(
                    "{TOKEN_VARIABLE} must be {MIN_TOKEN_LEN} to 256 letters, digits, '-' or '_'"
                ));
            }
            Ok(t)
        }
        None => random_hex(TOKEN_BITS),
    }
}

/// Compares a secret with a candidate in time that does not depend on where they differ.
pub fn same_secret(secret: &str, candidate: &str) -> bool {
    let (a, b) = (secret.as_bytes(), candidate.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_random_and_compared_whole() {
        let a = random_hex(SESSION_BITS).unwrap();
        let b = random_hex(SESSION_BITS).unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(access_token(None).unwrap().len(), TOKEN_BITS / 4);
        assert_eq!(
            access_token(Some("abc-DEF_0123456789".into())).unwrap(),
            "abc-DEF_0123456789"
        );
        assert!(access_token(Some("short".into())).is_err());
        assert!(access_token(Some("spaces are not allowed here".into())).is_err());
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, &a[..31]));
    }
}
