//! The engine's operating-system process, shared between the thread that talks to it and any
//! thread that must end it at once (a restart, a shutdown, a global cap).
//!
//! A [`ChildHandle`] can be killed before its process even exists: a spawn after the kill ends
//! the new process immediately, so a cancelled start never leaves a process behind. A handle
//! made with [`ChildHandle::ending_with_thread`] also asks Linux to kill the process when the
//! thread that started it ends (`PR_SET_PDEATHSIG`), so engines never outlive a server that was
//! killed without a chance to clean up.

use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A child process that any thread may end.
#[derive(Debug, Default)]
pub struct ChildHandle {
    child: Mutex<Option<Child>>,
    stdin: Mutex<Option<ChildStdin>>,
    killed: AtomicBool,
    /// True from the start of [`ChildHandle::spawn`] until its process is kept or ended, so a
    /// handle killed meanwhile still counts as running until the process it forks is gone.
    spawning: AtomicBool,
    ends_with_thread: bool,
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ChildHandle {
    /// A handle for a process that lives until it is ended.
    pub fn new() -> Arc<ChildHandle> {
        Arc::new(ChildHandle::default())
    }

    /// A handle for a process that Linux kills when the thread that spawns it ends. Spawn from a
    /// thread that lives as long as the engine is used.
    pub fn ending_with_thread() -> Arc<ChildHandle> {
        Arc::new(ChildHandle {
            ends_with_thread: true,
            ..ChildHandle::default()
        })
    }

    /// Starts `cmd` (with its pipes set up by the caller) and keeps the child and its stdin.
    /// Fails when the handle was killed already (the new process is ended at once).
    pub fn spawn(&self, cmd: &mut Command) -> std::io::Result<ChildPipes> {
        // Announce the spawn before looking at `killed`: a kill from now on finds the handle
        // still running (see `is_running`) until the forked process is gone again.
        self.spawning.store(true, Ordering::SeqCst);
        let result = self.spawn_announced(cmd);
        self.spawning.store(false, Ordering::SeqCst);
        result
    }

    fn spawn_announced(&self, cmd: &mut Command) -> std::io::Result<ChildPipes> {
        let ended = || std::io::Error::other("the engine was ended while it started");
        if self.killed.load(Ordering::SeqCst) {
            return Err(ended());
        }
        if self.ends_with_thread {
            die_with_parent(cmd);
        }
        let mut child = cmd.spawn()?;
        let mut slot = locked(&self.child);
        if self.killed.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ended());
        }
        *locked(&self.stdin) = child.stdin.take();
        let pipes = ChildPipes {
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
        };
        *slot = Some(child);
        Ok(pipes)
    }

    /// Writes one line to the engine's input.
    pub fn write_line(&self, line: &str) -> std::io::Result<()> {
        let mut stdin = locked(&self.stdin);
        let pipe = stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the engine's input is closed"))?;
        writeln!(pipe, "{line}").and_then(|_| pipe.flush())
    }

    /// Sends `quit` unless another thread is writing right now (that thread may be stuck on a
    /// full pipe; the engine is then killed instead).
    pub fn try_quit(&self) {
        if let Ok(mut stdin) = self.stdin.try_lock() {
            if let Some(pipe) = stdin.as_mut() {
                let _ = writeln!(pipe, "quit").and_then(|_| pipe.flush());
            }
        }
    }

    /// The exit status, when the process has ended (it is then reaped).
    pub fn try_wait(&self) -> Option<std::process::ExitStatus> {
        locked(&self.child).as_mut().and_then(|c| c.try_wait().ok().flatten())
    }

    /// True while the process runs (or is about to be started), and while a spawn that a kill
    /// cancelled has not yet ended the process it forked.
    pub fn is_running(&self) -> bool {
        if self.killed.load(Ordering::SeqCst) {
            return self.spawning.load(Ordering::SeqCst);
        }
        match locked(&self.child).as_mut() {
            Some(c) => matches!(c.try_wait(), Ok(None)),
            None => true,
        }
    }

    /// True while a spawn that a kill cancelled has yet to end the process it forked (it will,
    /// as soon as that spawn returns).
    pub fn is_ending(&self) -> bool {
        self.killed.load(Ordering::SeqCst) && self.spawning.load(Ordering::SeqCst)
    }

    /// Sends `quit`, waits up to `wait` for the process to end, then kills it.
    pub fn quit(&self, wait: Duration) {
        let _ = self.write_line("quit");
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if self.try_wait().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Ends the process at once (and any later spawn through this handle) and reaps it.
    pub fn kill(&self) {
        self.killed.store(true, Ordering::SeqCst);
        if let Some(mut child) = locked(&self.child).take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Ok(mut stdin) = self.stdin.try_lock() {
            stdin.take();
        }
    }
}

/// The pipes of a spawned child that its caller reads.
#[derive(Debug)]
pub struct ChildPipes {
    /// The engine's standard output, when piped.
    pub stdout: Option<std::process::ChildStdout>,
    /// The engine's standard error, when piped.
    pub stderr: Option<std::process::ChildStderr>,
}

/// Asks Linux to kill the child with SIGKILL when the spawning thread ends.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: `pre_exec` runs the closure in the forked child before `exec`, where only
    // async-signal-safe calls are allowed. The closure only makes the system calls `prctl` and
    // `getppid` (no allocation, no locks) and builds an `io::Error` from a raw code (no
    // allocation). If the parent died before `prctl` took effect, the child is refused.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() as u32 != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Other systems: the engine sees the end of its input when the server goes.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// Live (not zombie) children of this process whose command line holds `marker`.
    fn children_with(marker: &str) -> usize {
        let me = std::process::id().to_string();
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return 0;
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                let mut f = stat.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace();
                let (state, ppid) = (f.next().unwrap_or("Z"), f.next().unwrap_or(""));
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                state != "Z" && ppid == me && String::from_utf8_lossy(&cmdline).contains(marker)
            })
            .count()
    }

    fn sleeper(marker: &str) -> Command {
        let mut cmd = Command::new("sleep");
        cmd.arg(marker).stdin(Stdio::piped()).stdout(Stdio::null());
        cmd
    }

    #[test]
    fn a_handle_killed_before_its_spawn_starts_nothing() {
        let handle = ChildHandle::new();
        handle.kill();
        assert!(handle.spawn(&mut sleeper("30.25")).is_err());
        assert!(!handle.is_running());
        assert_eq!(children_with("30.25"), 0);
    }

    /// Kills racing spawns at every moment: whenever the handle says it is not running, no
    /// process of it is left; a cap that counts running handles therefore bounds processes.
    #[test]
    fn a_killed_handle_counts_as_running_until_its_process_is_gone() {
        for round in 0..40u64 {
            let handle = ChildHandle::ending_with_thread();
            let spawner = {
                let handle = handle.clone();
                std::thread::spawn(move || {
                    let started = handle.spawn(&mut sleeper("30.5")).is_ok();
                    // Keep the thread (the process dies with it) until the kill is done.
                    while started && handle.try_wait().is_none() && !handle.killed.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                })
            };
            std::thread::sleep(Duration::from_micros(round * 50));
            handle.kill();
            for _ in 0..20 {
                if !handle.is_running() {
                    assert_eq!(children_with("30.5"), 0, "round {round}: a process outlives its handle");
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            spawner.join().unwrap();
            assert!(!handle.is_running());
            assert_eq!(children_with("30.5"), 0);
        }
    }
}
