//! Three `urlkit serve` instances on one S3 bucket, served by moto's S3 server on
//! 127.0.0.1 (installed by scripts/test.sh in a Python virtual environment; the path of
//! its `moto_server` is in `URLKIT_MOTO_SERVER`, else it is looked up on the PATH).
//!
//! Any instance serves any result, once; a result whose instance was killed expires all
//! the same, and so does its unfinished multipart upload; a store outage is a clear 503
//! and the instances recover when the store returns.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const BUCKET: &str = "urlkit-test";
/// Short, so expiry can be watched.
const TTL: &str = "3s";

/// moto's S3 server on a free port of 127.0.0.1.
struct Moto {
    child: Child,
    port: u16,
}

impl Moto {
    fn start() -> Moto {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Moto::start_on(port)
    }

    fn start_on(port: u16) -> Moto {
        let program =
            std::env::var("URLKIT_MOTO_SERVER").unwrap_or_else(|_| "moto_server".to_string());
        let child = Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let moto = Moto { child, port };
        wait_for("moto_server to listen", || {
            TcpStream::connect(("127.0.0.1", port)).is_ok()
        });
        let (status, body) = moto.request("PUT", &format!("/{BUCKET}"));
        assert_eq!(status, 200, "{body}");
        moto
    }

    /// One request to the S3 API (moto does not check signatures): status and body.
    fn request(&self, method: &str, target: &str) -> (u16, String) {
        let answer = exchange(
            &format!("127.0.0.1:{}", self.port),
            format!(
                "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\
                 Connection: close\r\n\r\n",
                self.port
            )
            .as_bytes(),
        );
        (status_of(&answer), body_of(&answer))
    }

    /// The names of the objects under `prefix`.
    fn objects(&self, prefix: &str) -> Vec<String> {
        let (status, body) = self.request("GET", &format!("/{BUCKET}?list-type=2&prefix={prefix}"));
        assert_eq!(status, 200, "{body}");
        body.split("<Key>")
            .skip(1)
            .filter_map(|rest| rest.split("</Key>").next())
            .map(str::to_string)
            .collect()
    }

    /// How many multipart uploads are in progress under `prefix`.
    fn uploads(&self, prefix: &str) -> usize {
        let (status, body) = self.request("GET", &format!("/{BUCKET}?uploads&prefix={prefix}"));
        assert_eq!(status, 200, "{body}");
        body.matches("<UploadId>").count()
    }

    fn stop(mut self) -> u16 {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.port
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One `urlkit serve` on the bucket, under `prefix`.
struct Instance {
    child: Child,
    addr: String,
}

impl Instance {
    fn start(moto: &Moto, prefix: &str, extra: &[&str]) -> Instance {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlkit"))
            .args(["serve", "--addr", "127.0.0.1:0", "--ttl", TTL])
            .arg("--store")
            .arg(format!("s3://{BUCKET}/{prefix}"))
            .args(extra)
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_REGION", "us-east-1")
            .env(
                "AWS_ENDPOINT_URL",
                format!("http://127.0.0.1:{}", moto.port),
            )
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .unwrap();
            if let Some(addr) = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("http://"))
            {
                break addr.to_string();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Instance { child, addr }
    }

    fn get(&self, path: &str) -> (u16, String) {
        let answer = exchange(
            &self.addr,
            format!("GET {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        (status_of(&answer), body_of(&answer))
    }

    /// Uploads `content` to be encoded; the answer's status and body.
    fn upload(&self, content: &[u8]) -> (u16, String) {
        let mut body = b"--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\nencode\r\n\
--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n"
            .to_vec();
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n--B--\r\n");
        let mut request = format!(
            "POST /api/files HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\
             Content-Type: multipart/form-data; boundary=B\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(&body);
        let answer = exchange(&self.addr, &request);
        (status_of(&answer), body_of(&answer))
    }

    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn exchange(addr: &str, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_of(answer: &str) -> u16 {
    answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:.200}"))
}

/// The body of an answer, chunked or not.
fn body_of(answer: &str) -> String {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return body.to_string();
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    out
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:.300}"))
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "waited a minute for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A prefix of its own for each test, so tests can share nothing.
fn prefix(test: &str) -> String {
    format!("{test}-{}", std::process::id())
}

#[test]
#[ignore = "needs moto_server; scripts/test.sh runs it"]
fn any_instance_serves_a_result_once() {
    let moto = Moto::start();
    let prefix = prefix("once");
    let instances: Vec<Instance> = (0..3)
        .map(|_| Instance::start(&moto, &prefix, &[]))
        .collect();
    // Upload on the first, download on the second, then 404 on the third.
    let (status, body) = instances[0].upload(b"a b");
    assert_eq!(status, 201, "{body}");
    let download = json(&body)["download"].as_str().unwrap().to_string();
    let (status, bytes) = instances[1].get(&download);
    assert_eq!((status, bytes.as_str()), (200, "a%20b"));
    let (status, body) = instances[2].get(&download);
    assert_eq!(status, 404, "{body}");
    assert_eq!(json(&body)["error"]["code"], "not-found");
    // A result larger than one part (multipart upload) comes back whole.
    let large: Vec<u8> = (0..6 << 20).map(|i| b"ab"[i % 2]).collect();
    let (status, body) = instances[2].upload(&large);
    assert_eq!(status, 201, "{body}");
    let download = json(&body)["download"].as_str().unwrap().to_string();
    let (status, bytes) = instances[0].get(&download);
    assert_eq!(status, 200);
    assert!(bytes.as_bytes() == large.as_slice());
    // Fifty concurrent downloads spread over the three: exactly one gets the bytes.
    let (status, body) = instances[1].upload(b"once only");
    assert_eq!(status, 201, "{body}");
    let download = json(&body)["download"].as_str().unwrap().to_string();
    let barrier = Arc::new(Barrier::new(50));
    let addrs: Vec<String> = instances.iter().map(|i| i.addr.clone()).collect();
    let attempts: Vec<_> = (0..50)
        .map(|k| {
            let (barrier, addr, download) =
                (barrier.clone(), addrs[k % 3].clone(), download.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let answer = exchange(
                    &addr,
                    format!("GET {download} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                        .as_bytes(),
                );
                (status_of(&answer), body_of(&answer))
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for attempt in attempts {
        let (status, body) = attempt.join().unwrap();
        if status == 200 {
            assert_eq!(body, "once%20only");
        } else {
            assert_eq!(status, 404, "{body}");
        }
        statuses.push(status);
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        1,
        "{statuses:?}"
    );
    // Downloaded results leave nothing behind.
    wait_for("the downloaded results to be deleted", || {
        moto.objects(&prefix).is_empty()
    });
}

#[test]
#[ignore = "needs moto_server; scripts/test.sh runs it"]
fn results_and_uploads_of_a_killed_instance_expire() {
    let moto = Moto::start();
    let prefix = prefix("expiry");
    let doomed = Instance::start(&moto, &prefix, &[]);
    let (status, body) = doomed.upload(b"never fetched");
    assert_eq!(status, 201, "{body}");
    let download = json(&body)["download"].as_str().unwrap().to_string();
    // An upload cut off after its first part: the multipart upload is in progress.
    let mut stream = TcpStream::connect(&doomed.addr).unwrap();
    let start = b"--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\ndecode\r\n\
--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n";
    write!(
        stream,
        "POST /api/files HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=B\r\n\
         Content-Length: {}\r\n\r\n",
        start.len() + (12 << 20)
    )
    .unwrap();
    stream.write_all(start).unwrap();
    stream.write_all(&vec![b'x'; 6 << 20]).unwrap();
    wait_for("the multipart upload to start", || {
        moto.uploads(&prefix) == 1
    });
    doomed.kill();
    drop(stream);
    assert_eq!(
        moto.objects(&prefix).len(),
        2,
        "{:?}",
        moto.objects(&prefix)
    );
    // The others sweep: both are gone after the time to live.
    let others: Vec<Instance> = (0..2)
        .map(|_| Instance::start(&moto, &prefix, &[]))
        .collect();
    wait_for("the results of the killed instance to expire", || {
        moto.objects(&prefix).is_empty() && moto.uploads(&prefix) == 0
    });
    let (status, _) = others[0].get(&download);
    assert_eq!(status, 404);
}

#[test]
#[ignore = "needs moto_server; scripts/test.sh runs it"]
fn a_store_outage_is_a_503_and_the_instances_recover() {
    let moto = Moto::start();
    let prefix = prefix("outage");
    let instances: Vec<Instance> = (0..3)
        .map(|_| Instance::start(&moto, &prefix, &[]))
        .collect();
    let (status, body) = instances[0].upload(b"before");
    assert_eq!(status, 201, "{body}");
    assert_eq!(instances[0].get("/readyz").0, 200);
    let port = moto.stop();
    for instance in &instances {
        let started = Instant::now();
        let (status, body) = instance.upload(b"during");
        assert_eq!(status, 503, "{body}");
        assert_eq!(json(&body)["error"]["code"], "store-unavailable");
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "{:?}",
            started.elapsed()
        );
        let (status, body) = instance.get("/readyz");
        assert_eq!(status, 503, "{body}");
        assert_eq!(json(&body)["error"]["code"], "not-ready");
        assert_eq!(instance.get("/healthz").0, 200);
    }
    // The store returns (empty: moto keeps nothing): every instance works again.
    let moto = Moto::start_on(port);
    for instance in &instances {
        wait_for("the instance to be ready again", || {
            instance.get("/readyz").0 == 200
        });
        let (status, body) = instance.upload(b"after");
        assert_eq!(status, 201, "{body}");
        let download = json(&body)["download"].as_str().unwrap().to_string();
        assert_eq!(instance.get(&download), (200, "after".to_string()));
    }
    drop(moto);
}
