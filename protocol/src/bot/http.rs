//! The site's BOT API over HTTP(S): one blocking client (ureq, TLS by rustls) shared by every
//! thread, every call with the bearer token and bounded in time. Answers are sorted into what
//! the caller must do about them: give up (the token is refused), wait (rate limit, server
//! error, network), or take the refusal of this one request.

use super::ndjson::LineReader;
use super::site_page::{parse_page, SiteGame};
use super::wire::Account;
use std::fmt;
use std::time::Duration;
use ureq::http::Response;
use ureq::{Agent, Body, BodyReader};

/// The header that tells the site which variants the bot plays.
pub const CAPABILITIES_HEADER: &str = "X-PyChess-Bot-Capabilities";
/// A stream that sends nothing (not even the 6 s ping) this long is taken for dead.
pub const QUIET_LIMIT: Duration = Duration::from_secs(20);
/// The bound on every call other than the streams.
const CALL_LIMIT: Duration = Duration::from_secs(15);

/// A stream of JSON lines from the site.
pub type Stream = LineReader<StreamBody>;

/// A response body whose read timeout reads as [`std::io::ErrorKind::TimedOut`] (ureq wraps it
/// in an `Other` error).
pub struct StreamBody(BodyReader<'static>);

impl std::io::Read for StreamBody {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            let timeout = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<ureq::Error>())
                .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_)));
            if timeout {
                std::io::Error::new(std::io::ErrorKind::TimedOut, e.to_string())
            } else {
                e
            }
        })
    }
}

/// A failed call.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiError {
    /// 401 or 403: the token is wrong, revoked, or not a BOT's. Retrying cannot help.
    Refused {
        /// The status.
        status: u16,
        /// The server's text.
        body: String,
    },
    /// 429: too many requests; wait this long when the server says.
    RateLimited {
        /// `Retry-After`, when given in seconds.
        retry_after: Option<Duration>,
    },
    /// 5xx: the server has trouble.
    Server {
        /// The status.
        status: u16,
    },
    /// Any other 4xx: this request is refused (a game that is gone, a bad header ...).
    Rejected {
        /// The status.
        status: u16,
        /// The server's text.
        body: String,
    },
    /// No answer: the connection failed or timed out.
    Network(String),
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Refused { status, body } => write!(f, "HTTP {status}: the token was refused{}", quote(body)),
            ApiError::RateLimited { retry_after: Some(d) } => {
                write!(f, "HTTP 429: too many requests (retry after {} s)", d.as_secs())
            }
            ApiError::RateLimited { retry_after: None } => write!(f, "HTTP 429: too many requests"),
            ApiError::Server { status } => write!(f, "HTTP {status}: server error"),
            ApiError::Rejected { status, body } => write!(f, "HTTP {status}{}", quote(body)),
            ApiError::Network(e) => write!(f, "network: {e}"),
        }
    }
}

/// The server's text in parentheses after a space (shortened), or nothing.
fn quote(body: &str) -> String {
    let body = body.trim();
    match body.chars().count() {
        0 => String::new(),
        n if n > 200 => format!(" ({}...)", body.chars().take(200).collect::<String>()),
        _ => format!(" ({body})"),
    }
}

/// A game or challenge id as the site makes them (letters and digits), so that it can go in
/// a URL path as it is.
pub fn is_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The client: the site's base URL and the token.
pub struct Api {
    base: String,
    token: String,
    calls: Agent,
    streams: Agent,
}

impl Api {
    /// A client for the site at `base` (checked by the config) with `token`.
    pub fn new(base: &str, token: &str) -> Api {
        Api::with_quiet_limit(base, token, QUIET_LIMIT)
    }

    /// [`Api::new`] taking a stream for dead after `quiet` without a byte (tests).
    pub fn with_quiet_limit(base: &str, token: &str, quiet: Duration) -> Api {
        let user_agent = concat!("vorpal-bot/", env!("CARGO_PKG_VERSION"));
        let calls = Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(user_agent)
            .timeout_global(Some(CALL_LIMIT))
            .build()
            .new_agent();
        let streams = Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(user_agent)
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_recv_response(Some(CALL_LIMIT))
            .timeout_per_read(Some(quiet))
            .build()
            .new_agent();
        Api {
            base: base.to_string(),
            token: token.to_string(),
            calls,
            streams,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// `GET /api/account`: who the token belongs to.
    pub fn account(&self) -> Result<Account, ApiError> {
        let resp = self
            .calls
            .get(self.url("/api/account"))
            .header("Authorization", self.bearer())
            .call();
        let text = read_text(checked(resp)?)?;
        serde_json::from_str(&text).map_err(|e| ApiError::Rejected {
            status: 200,
            body: format!("unexpected account answer: {e}"),
        })
    }

    /// `GET /api/stream/event` with the capabilities header naming `variants`.
    pub fn event_stream(&self, variants: &[String]) -> Result<Stream, ApiError> {
        let capabilities = serde_json::json!({"version": 1, "variants": variants}).to_string();
        let resp = self
            .streams
            .get(self.url("/api/stream/event"))
            .header("Authorization", self.bearer())
            .header(CAPABILITIES_HEADER, capabilities)
            .call();
        Ok(LineReader::new(StreamBody(checked(resp)?.into_body().into_reader())))
    }

    /// `GET /api/bot/game/stream/{id}`.
    pub fn game_stream(&self, id: &str) -> Result<Stream, ApiError> {
        let resp = self
            .streams
            .get(self.url(&format!("/api/bot/game/stream/{id}")))
            .header("Authorization", self.bearer())
            .call();
        Ok(LineReader::new(StreamBody(checked(resp)?.into_body().into_reader())))
    }

    fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<(), ApiError> {
        let request = self.calls.post(self.url(path)).header("Authorization", self.bearer());
        let resp = if form.is_empty() {
            request.send_empty()
        } else {
            request.send_form(form.iter().copied())
        };
        read_text(checked(resp)?).map(drop)
    }

    /// Accepts challenge `id`.
    pub fn accept(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/challenge/{id}/accept"), &[])
    }

    /// Declines challenge `id` with one of the site's reason keys.
    pub fn decline(&self, id: &str, reason: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/challenge/{id}/decline"), &[("reason", reason)])
    }

    /// Plays `uci` in game `id`.
    pub fn send_move(&self, id: &str, uci: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/bot/game/{id}/move/{uci}"), &[])
    }

    /// Aborts game `id`.
    pub fn abort(&self, id: &str) -> Result<(), ApiError> {
        self.post(&format!("/api/bot/game/{id}/abort"), &[])
    }

    /// `GET /{id}`: the game's public page (no token sent), read as the site's record of the
    /// game; `Ok(None)` when the site has no such game (a game with fewer than 3 plies is
    /// deleted once over).
    pub fn game_page(&self, id: &str) -> Result<Option<SiteGame>, ApiError> {
        let resp = self.calls.get(self.url(&format!("/{id}"))).call();
        let text = match checked(resp) {
            Ok(resp) => read_text(resp)?,
            Err(ApiError::Rejected { status: 404, .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        parse_page(&text).map(Some).ok_or_else(|| ApiError::Rejected {
            status: 200,
            body: "the game page has no game in it".into(),
        })
    }

    /// Says `text` in the players' chat of game `id`.
    pub fn chat(&self, id: &str, text: &str) -> Result<(), ApiError> {
        self.post(
            &format!("/api/bot/game/{id}/chat"),
            &[("room", "player"), ("text", text)],
        )
    }
}

/// The response if its status is a success, else the error it means.
fn checked(resp: Result<Response<Body>, ureq::Error>) -> Result<Response<Body>, ApiError> {
    let mut resp = resp.map_err(|e| ApiError::Network(e.to_string()))?;
    let status = resp.status().as_u16();
    if (200..300).contains(&status) {
        return Ok(resp);
    }
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|s| Duration::from_secs(s.min(3600)));
    let body = resp
        .body_mut()
        .with_config()
        .limit(4096)
        .read_to_string()
        .unwrap_or_default();
    Err(match status {
        401 | 403 => ApiError::Refused { status, body },
        429 => ApiError::RateLimited { retry_after },
        500..=599 => ApiError::Server { status },
        _ => ApiError::Rejected { status, body },
    })
}

/// The body of a small answer as text.
fn read_text(mut resp: Response<Body>) -> Result<String, ApiError> {
    resp.body_mut()
        .with_config()
        .limit(1 << 20)
        .read_to_string()
        .map_err(|e| ApiError::Network(format!("reading the answer: {e}")))
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
