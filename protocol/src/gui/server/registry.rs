//! The open connections: counted against a cap, each marked idle (waiting for a request) or
//! busy (a request being answered, a long poll included). At the cap the connection that has
//! been idle longest is closed to make room, so idle or slow clients can never lock out a page.

use std::collections::HashMap;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

struct Entry {
    stream: Arc<TcpStream>,
    idle_since: Option<Instant>,
}

/// The connections of one server.
pub struct Registry {
    max: usize,
    next: AtomicU64,
    open: Mutex<HashMap<u64, Entry>>,
}

impl Registry {
    /// A registry for at most `max` connections.
    pub fn new(max: usize) -> Registry {
        Registry {
            max: max.max(1),
            next: AtomicU64::new(1),
            open: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Entry>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a new connection (idle); at the cap the longest-idle one is closed first.
    /// None when every connection is busy.
    pub fn admit(&self, stream: &Arc<TcpStream>) -> Option<u64> {
        let mut map = self.map();
        if map.len() >= self.max && !evict_oldest_idle(&mut map) {
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        map.insert(
            id,
            Entry {
                stream: stream.clone(),
                idle_since: Some(Instant::now()),
            },
        );
        Some(id)
    }

    /// Closes the connection that has been idle longest (to free a file handle); false if none is idle.
    pub fn evict_oldest_idle(&self) -> bool {
        evict_oldest_idle(&mut self.map())
    }

    /// Marks connection `id` idle (waiting for its next request) or busy.
    pub fn set_idle(&self, id: u64, idle: bool) {
        if let Some(e) = self.map().get_mut(&id) {
            e.idle_since = idle.then(Instant::now);
        }
    }

    /// Forgets connection `id` (it has closed).
    pub fn remove(&self, id: u64) {
        self.map().remove(&id);
    }

    /// Connections open now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map().len()
    }
}

fn evict_oldest_idle(map: &mut HashMap<u64, Entry>) -> bool {
    let oldest = map
        .iter()
        .filter_map(|(id, e)| e.idle_since.map(|t| (t, *id)))
        .min()
        .map(|(_, id)| id);
    let Some(id) = oldest else { return false };
    if let Some(e) = map.remove(&id) {
        // Its thread's next read fails and the thread ends.
        let _ = e.stream.shutdown(Shutdown::Both);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn the_longest_idle_connection_makes_room() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let clients: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let served: Vec<Arc<TcpStream>> = (0..3).map(|_| Arc::new(listener.accept().unwrap().0)).collect();
        let reg = Registry::new(2);
        let a = reg.admit(&served[0]).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let b = reg.admit(&served[1]).unwrap();
        reg.set_idle(b, false);
        let c = reg.admit(&served[2]).unwrap();
        assert_eq!(reg.len(), 2);
        // `a` was closed: its client reads the end of the stream.
        let mut buf = [0u8; 1];
        assert_eq!(std::io::Read::read(&mut &clients[0], &mut buf).unwrap(), 0);
        reg.set_idle(c, false);
        assert!(reg.admit(&served[2]).is_none(), "every connection busy");
        reg.remove(a);
        reg.remove(b);
        assert_eq!(reg.len(), 1);
    }
}
