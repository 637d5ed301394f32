//! The page's files, compiled into the binary: the HTML, the style sheet, the JavaScript modules
//! and the piece images. The images are drawn once per kind with colour placeholders and
//! coloured here for White and Black. Lookup is by exact path, so no request reaches the disk.

const INDEX: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/style.css");
const APP: &str = include_str!("assets/app.js");
const BOARD: &str = include_str!("assets/board.js");
const API: &str = include_str!("assets/api.js");
const PANELS: &str = include_str!("assets/panels.js");

/// One drawing per piece kind, by its letter.
const PIECES: [(char, &str); 6] = [
    ('K', include_str!("assets/pieces/king.svg")),
    ('Q', include_str!("assets/pieces/queen.svg")),
    ('R', include_str!("assets/pieces/rook.svg")),
    ('B', include_str!("assets/pieces/bishop.svg")),
    ('N', include_str!("assets/pieces/knight.svg")),
    ('P', include_str!("assets/pieces/pawn.svg")),
];

/// Fill and outline colours of White's and Black's pieces.
const WHITE: (&str, &str) = ("#fbf8ef", "#222222");
const BLACK: (&str, &str) = ("#2b2b2b", "#f4f1e6");

/// The body and content type of the asset at `path`, if there is one.
pub fn find(path: &str) -> Option<(Vec<u8>, &'static str)> {
    let js = "text/javascript; charset=utf-8";
    let page = match path {
        "/" | "/index.html" => Some((INDEX, "text/html; charset=utf-8")),
        "/style.css" => Some((STYLE, "text/css; charset=utf-8")),
        "/app.js" => Some((APP, js)),
        "/board.js" => Some((BOARD, js)),
        "/api.js" => Some((API, js)),
        "/panels.js" => Some((PANELS, js)),
        _ => None,
    };
    if let Some((body, kind)) = page {
        return Some((body.as_bytes().to_vec(), kind));
    }
    let name = path.strip_prefix("/pieces/")?.strip_suffix(".svg")?;
    let mut chars = name.chars();
    let (color, kind) = (chars.next()?, chars.next()?.to_ascii_uppercase());
    if chars.next().is_some() {
        return None;
    }
    let (fill, stroke) = match color {
        'w' => WHITE,
        'b' => BLACK,
        _ => return None,
    };
    let svg = PIECES.iter().find(|(k, _)| *k == kind)?.1;
    let body = svg.replace("FILL", fill).replace("STROKE", stroke);
    Some((body.into_bytes(), "image/svg+xml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets_by_exact_path_only() {
        assert!(find("/").is_some());
        assert!(find("/app.js").is_some());
        let (svg, kind) = find("/pieces/wN.svg").unwrap();
        assert_eq!(kind, "image/svg+xml");
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains(WHITE.0) && !svg.contains("FILL"));
        assert!(find("/pieces/bp.svg").is_some());
        assert!(find("/pieces/xK.svg").is_none());
        assert!(find("/pieces/wKK.svg").is_none());
        assert!(find("/../Cargo.toml").is_none());
        assert!(find("/pieces/../app.js").is_none());
    }
}
