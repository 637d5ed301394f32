//! The GUI's HTTP request heads: any bytes are parsed or refused with a 4xx/5xx status;
//! an accepted head has a clean method and target and no repeated singleton field.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match vorpal_protocol::doors::http_head(data) {
        Ok(head) => {
            assert!(head.method.bytes().all(|b| b.is_ascii_uppercase()) && !head.method.is_empty());
            assert!(head.target.starts_with('/'));
            for once in ["host", "content-length", "origin", "authorization", "cookie"] {
                let count = head.headers.iter().filter(|(n, _)| n == once).count();
                assert!(count <= 1, "two {once} fields accepted");
            }
        }
        Err(status) => assert!((400..600).contains(&status), "status {status}"),
    }
});
