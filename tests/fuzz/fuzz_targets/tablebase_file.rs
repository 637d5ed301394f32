//! Tablebase files: any bytes are refused with a reason or give value arrays of the right
//! size. Most inputs get a valid magic, version, header and checksum around fuzzed data, so
//! the fuzzer reaches the run-length decoder.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::nnue::format::fnv1a;
use vorpal_engine::tablebase::{check_file_bytes, file_entries, Material, RULES, VERSION};

const MATERIALS: [&str; 4] = ["KQvK", "KRvK", "KPvK", "KBvKP"];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let material = Material::parse(MATERIALS[usize::from(mode >> 4) % MATERIALS.len()]).expect("material");
    let dtz = mode & 2 == 2;
    let mut bytes = Vec::new();
    if mode & 1 == 1 {
        let entries = file_entries(&material);
        bytes.extend_from_slice(b"VORPALTB");
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let mut header = format!("material={material}\nrules={}\nentries={entries}\n", RULES);
        if dtz {
            header.push_str("metric=dtz\n");
        }
        bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
    }
    bytes.extend_from_slice(rest);
    if mode & 4 == 0 {
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
    }
    let _ = check_file_bytes(&bytes, &material, dtz);
});
