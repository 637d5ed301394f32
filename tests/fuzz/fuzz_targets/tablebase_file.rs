//! Tablebase files: any bytes are refused with a reason or give value arrays of the right
//! size. Most inputs get a valid magic, version, header and checksum around fuzzed data, so
//! the fuzzer reaches the run-length decoder. With bit 3 of the first byte, the bytes are read
//! as a generation's checkpoint instead (`<MATERIAL>.vtb.ckpt`, as a resumed five-man
//! generation reads it).
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::nnue::format::fnv1a;
use vorpal_engine::tablebase::{check_checkpoint_bytes, check_file_bytes, file_entries, Material, RULES, VERSION};

const MATERIALS: [&str; 4] = ["KQvK", "KRvK", "KPvK", "KBvKP"];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let material = Material::parse(MATERIALS[usize::from(mode >> 4) % MATERIALS.len()]).expect("material");
    let dtz = mode & 2 == 2;
    let mut bytes = Vec::new();
    if mode & 8 == 8 {
        if mode & 1 == 1 {
            let header = format!(
                "material={material}\nentries={}\nstage=ply 3\n",
                file_entries(&material)
            );
            bytes.extend_from_slice(b"VORPALCK");
            bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
            bytes.extend_from_slice(header.as_bytes());
        }
        bytes.extend_from_slice(rest);
        if mode & 4 == 0 {
            let sum = fnv1a(&bytes);
            bytes.extend_from_slice(&sum.to_le_bytes());
        }
        let _ = check_checkpoint_bytes(&bytes, &material);
        return;
    }
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
