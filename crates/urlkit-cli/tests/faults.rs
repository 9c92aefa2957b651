//! `urlkit serve` killed with SIGKILL in the middle of an upload and of a download, then
//! restarted on the same `--store`: nothing is left behind and no partial or second copy
//! of a result is ever served.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Serve {
    child: Child,
    addr: String,
}

impl Serve {
    /// Starts `urlkit serve` on a free port with `store`; returns once it listens.
    fn start(store: &Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlkit"))
            .args(["serve", "--addr", "127.0.0.1:0", "--max-upload", "64M"])
            .arg("--store")
            .arg(store)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let line = lines.next().unwrap().unwrap();
        // Keep draining what the server writes, so it never writes into a closed pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Serve { child, addr }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }

    /// One request on its own connection; the whole answer as text.
    fn exchange(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    }

    fn get(&self, path: &str) -> String {
        self.exchange(
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.addr
            )
            .as_bytes(),
        )
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Store(PathBuf);

impl Store {
    fn new(name: &str) -> Store {
        let dir = std::env::temp_dir().join(format!("urlkit-faults-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Store(dir)
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const BOUNDARY: &str = "urlkitFaultBoundary";

/// The head of an upload request of `size` file bytes, the form up to the file's bytes,
/// and the form's end.
fn upload_parts(addr: &str, size: usize) -> (Vec<u8>, Vec<u8>) {
    let form_head = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\nencode\r\n\
         --{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    );
    let form_tail = format!("\r\n--{BOUNDARY}--\r\n");
    let length = form_head.len() + size + form_tail.len();
    let head = format!(
        "POST /api/files HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {length}\r\n\r\n\
         {form_head}"
    );
    (head.into_bytes(), form_tail.into_bytes())
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn killed_during_an_upload_leaves_nothing_after_restart() {
    let store = Store::new("upload");
    let server = Serve::start(&store.0);
    let (head, _) = upload_parts(&server.addr, 32 << 20);
    let mut upload = server.connect();
    upload.write_all(&head).unwrap();
    upload.write_all(&vec![b'a'; 4 << 20]).unwrap();
    wait_for("the pending result", || {
        store.names().iter().any(|n| n.ends_with(".pending"))
    });
    // Half-written: only a pending name exists, nothing a download could find.
    assert!(
        store.names().iter().all(|n| n.ends_with(".pending")),
        "{:?}",
        store.names()
    );
    server.kill();
    drop(upload);
    assert_eq!(
        store.names().len(),
        1,
        "the killed upload's file: {:?}",
        store.names()
    );

    let server = Serve::start(&store.0);
    assert_eq!(store.names(), Vec::<String>::new(), "left after restart");
    assert!(server.get("/healthz").starts_with("HTTP/1.1 200"));
}

#[test]
fn killed_during_a_download_serves_no_second_copy_after_restart() {
    let store = Store::new("download");
    let server = Serve::start(&store.0);
    let size = 16 << 20;
    let (head, tail) = upload_parts(&server.addr, size);
    let mut request = head;
    request.extend(std::iter::repeat_n(b'a', size));
    request.extend(tail);
    let answer = server.exchange(&request);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer:.300}");
    let id = answer
        .split("\"id\":\"")
        .nth(1)
        .and_then(|rest| rest.get(..32))
        .expect("an id")
        .to_string();
    assert_eq!(store.names(), vec![format!("{id}.ready")]);

    // Start the download, read only its beginning, then kill the server.
    let mut download = server.connect();
    write!(
        download,
        "GET /api/files/{id} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut first = [0u8; 4096];
    let n = download.read(&mut first).unwrap();
    assert!(first[..n].starts_with(b"HTTP/1.1 200"));
    server.kill();
    // What the client got (cut short, or all of it if it was already in flight) is the
    // result's own bytes and nothing else.
    let mut received = first[..n].to_vec();
    let _ = download.read_to_end(&mut received);
    let body_at = received.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let body = &received[body_at..];
    assert!(body.len() <= size && body.iter().all(|&b| b == b'a'));

    let server = Serve::start(&store.0);
    assert_eq!(store.names(), Vec::<String>::new(), "left after restart");
    let again = server.get(&format!("/api/files/{id}"));
    assert!(again.starts_with("HTTP/1.1 404"), "{again:.300}");
}

#[test]
fn a_committed_result_never_survives_a_crash_half_claimed() {
    // Killed after the result was stored but before anyone downloaded it: the restarted
    // server removes it with every other leftover, so nothing stale is ever served.
    let store = Store::new("committed");
    let server = Serve::start(&store.0);
    let (head, tail) = upload_parts(&server.addr, 3);
    let mut request = head;
    request.extend(b"a b");
    request.extend(tail);
    let answer = server.exchange(&request);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer:.300}");
    server.kill();
    assert_eq!(store.names().len(), 1);
    let server = Serve::start(&store.0);
    assert_eq!(store.names(), Vec::<String>::new());
    assert!(server.get("/healthz").starts_with("HTTP/1.1 200"));
}
