//! Who may talk to the GUI's server: the checks every request passes before any route sees it.
//!
//! - `Host` must name this server (loopback names, the listening address, or an `--allow-host`
//!   name), against DNS rebinding.
//! - A present `Origin` must be this server's own, and `Sec-Fetch-Site: cross-site` is refused
//!   (also `same-site` for the API: another port of this machine is a different program).
//! - The API needs the access token: the page's `HttpOnly; SameSite=Strict` cookie, or
//!   `Authorization: token TOKEN` for scripts. The page itself is served with the cookie to
//!   whoever opens the printed link (`/?token=TOKEN`).
//! - A POST body must be JSON (`Content-Type: application/json`), so no HTML form can send one.

use super::secret::same_secret;
use super::server::{Request, Response};
use std::net::IpAddr;

/// The access rules of one server.
#[derive(Clone, Debug)]
pub struct Access {
    token: String,
    cookie: String,
    listen: IpAddr,
    allowed_hosts: Vec<String>,
}

/// What a request may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// The token came in the address (`/?token=`): serve the page and set the cookie.
    PageWithCookie,
    /// The request carries a valid token (cookie or header).
    Token,
    /// No valid token: public assets only.
    Public,
}

impl Access {
    /// Rules for a server with `token` listening on `listen:port`, with the extra Host names
    /// `allowed_hosts`.
    pub fn new(token: String, listen: IpAddr, port: u16, allowed_hosts: Vec<String>) -> Access {
        Access {
            token,
            // Per port: cookies do not tell ports apart, and two servers may run at once.
            cookie: format!("vorpal_gui_{port}"),
            listen,
            allowed_hosts: allowed_hosts.into_iter().map(|h| h.to_ascii_lowercase()).collect(),
        }
    }

    /// The `Set-Cookie` value that gives the page the token.
    pub fn set_cookie(&self) -> String {
        format!("{}={}; Path=/; HttpOnly; SameSite=Strict", self.cookie, self.token)
    }

    /// The name in `Host` when it names this server.
    fn host<'a>(&self, request: &'a Request) -> Option<&'a str> {
        let host = request.header("host")?;
        let name = match host.rfind(':') {
            Some(i) if !host[i..].contains(']') => &host[..i],
            _ => host,
        };
        let name = name.trim_matches(['[', ']']);
        let ok = name.eq_ignore_ascii_case("localhost")
            || name
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback() || (ip == self.listen && !ip.is_unspecified()))
            || self.allowed_hosts.iter().any(|h| h.eq_ignore_ascii_case(name));
        ok.then_some(host)
    }

    /// Refuses requests from elsewhere: a foreign `Host`, `Origin` or `Sec-Fetch-Site`.
    pub fn refuse_foreign(&self, request: &Request) -> Option<Response> {
        let Some(host) = self.host(request) else {
            return Some(Response::text(403, "forbidden: unexpected Host header"));
        };
        if let Some(origin) = request.header("origin") {
            let own = format!("http://{host}");
            if !origin.eq_ignore_ascii_case(&own) {
                return Some(Response::text(403, "forbidden: request from another site"));
            }
        }
        let site = request.header("sec-fetch-site").unwrap_or("");
        let api = request.path().starts_with("/api/");
        if site.eq_ignore_ascii_case("cross-site") || (api && site.eq_ignore_ascii_case("same-site")) {
            return Some(Response::text(403, "forbidden: request from another site"));
        }
        None
    }

    /// What the request's token allows.
    pub fn grant(&self, request: &Request) -> Grant {
        let valid = |t: &str| same_secret(&self.token, t);
        let cookie = request
            .headers_named("cookie")
            .flat_map(|v| v.split(';'))
            .filter_map(|kv| kv.trim().split_once('='))
            .any(|(k, v)| k == self.cookie && valid(v));
        let header = request
            .header("authorization")
            .and_then(|v| v.strip_prefix("token ").or_else(|| v.strip_prefix("Token ")))
            .is_some_and(|t| valid(t.trim()));
        if cookie || header {
            return Grant::Token;
        }
        if request.query("token").is_some_and(valid) {
            return Grant::PageWithCookie;
        }
        Grant::Public
    }

    /// Refuses a POST body that is not JSON (415).
    pub fn refuse_body_type(request: &Request) -> Option<Response> {
        let has_body = request.content_length().ok().flatten().unwrap_or(0) > 0;
        if request.method != "POST" || !has_body {
            return None;
        }
        let kind = request.header("content-type").unwrap_or("");
        let media = kind.split(';').next().unwrap_or("").trim();
        (!media.eq_ignore_ascii_case("application/json"))
            .then(|| Response::text(415, "request bodies must be application/json"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::server::Request;

    fn request(target: &str, headers: &[(&str, &str)]) -> Request {
        Request {
            method: "GET".into(),
            target: target.into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
                .collect(),
            body: Vec::new(),
            peer: "127.0.0.1:9".parse().unwrap(),
            http11: true,
        }
    }

    const TOKEN: &str = "0123456789abcdef0123";

    fn access() -> Access {
        Access::new(
            TOKEN.into(),
            "127.0.0.1".parse().unwrap(),
            8000,
            vec!["Chess.Lan".into()],
        )
    }

    #[test]
    fn hosts_origins_and_sites() {
        let a = access();
        let ok = |h: &[(&str, &str)]| a.refuse_foreign(&request("/api/state", h)).is_none();
        assert!(ok(&[("Host", "127.0.0.1:8000")]));
        assert!(ok(&[("Host", "localhost:8000"), ("Origin", "http://localhost:8000")]));
        assert!(ok(&[("Host", "[::1]:8000")]));
        assert!(ok(&[("Host", "chess.lan:8000")]));
        assert!(ok(&[("Host", "127.0.0.1:8000"), ("Sec-Fetch-Site", "same-origin")]));
        assert!(!ok(&[]));
        assert!(!ok(&[("Host", "evil.example:8000")]));
        assert!(!ok(&[("Host", "127.0.0.1:8000"), ("Origin", "https://evil.example")]));
        assert!(!ok(&[("Host", "127.0.0.1:8000"), ("Origin", "null")]));
        assert!(!ok(&[("Host", "127.0.0.1:8000"), ("Sec-Fetch-Site", "cross-site")]));
        assert!(!ok(&[("Host", "127.0.0.1:8000"), ("Sec-Fetch-Site", "same-site")]));
        let page = request("/", &[("Host", "127.0.0.1:8000"), ("Sec-Fetch-Site", "same-site")]);
        assert!(
            a.refuse_foreign(&page).is_none(),
            "a link from another local page opens the page"
        );
    }

    #[test]
    fn tokens_from_cookie_header_or_link() {
        let a = access();
        let grant = |t: &str, h: &[(&str, &str)]| a.grant(&request(t, h));
        assert_eq!(grant("/", &[]), Grant::Public);
        assert_eq!(grant(&format!("/?token={TOKEN}"), &[]), Grant::PageWithCookie);
        assert_eq!(grant("/?token=wrong", &[]), Grant::Public);
        let cookie = format!("other=1; vorpal_gui_8000={TOKEN}");
        assert_eq!(grant("/api/state", &[("Cookie", &cookie)]), Grant::Token);
        let other_port = format!("vorpal_gui_8001={TOKEN}");
        assert_eq!(grant("/api/state", &[("Cookie", &other_port)]), Grant::Public);
        let auth = format!("token {TOKEN}");
        assert_eq!(grant("/api/state", &[("Authorization", &auth)]), Grant::Token);
        assert_eq!(grant("/api/state", &[("Authorization", "token nope")]), Grant::Public);
        assert!(a.set_cookie().contains("HttpOnly; SameSite=Strict"));
    }

    #[test]
    fn post_bodies_must_be_json() {
        let mut r = request("/api/cmd", &[("Content-Type", "text/plain"), ("Content-Length", "2")]);
        r.method = "POST".into();
        assert_eq!(Access::refuse_body_type(&r).unwrap().status, 415);
        r.headers[0].1 = "application/json; charset=utf-8".into();
        assert!(Access::refuse_body_type(&r).is_none());
        r.headers[1].1 = "0".into();
        r.headers[0].1 = "text/plain".into();
        assert!(Access::refuse_body_type(&r).is_none(), "no body, nothing to check");
    }
}
