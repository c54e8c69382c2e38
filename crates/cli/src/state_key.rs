//! The key that signs the reference server's MRTR `requestState`
//! (M-MRTR-STATE): 32 random bytes from the operating system, drawn once
//! when `serve` starts and never written anywhere. A state issued by one
//! run of the server is rejected by the next.

use std::io::Read;

use crate::Failure;

/// 32 bytes from the operating system's random source.
pub fn random() -> Result<[u8; 32], Failure> {
    let mut key = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .map_err(|err| {
            Failure::Io(format!(
                "cannot read the operating system's random source for the requestState key: {err}"
            ))
        })?;
    Ok(key)
}
