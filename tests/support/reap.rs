//! Waiting for a child process with `wait4`, which also gives its own
//! resource usage (CPU time, peak resident memory). Shared by the memory
//! tests (`tests/memory.rs`) and the speed benchmark (`benches/speed`),
//! each of which includes this file by path.

/// Waits for the child `pid` to end: its wait status and resource usage.
pub fn reap(pid: libc::pid_t) -> (libc::c_int, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return (status, usage);
        }
        let err = std::io::Error::last_os_error();
        assert_eq!(err.kind(), std::io::ErrorKind::Interrupted, "wait4: {err}");
    }
}
