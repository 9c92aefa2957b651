//! A real PostgreSQL server for the tests, from Debian's `postgresql` package: `initdb` in
//! a temporary directory, `pg_ctl start` on 127.0.0.1 with a free port (its unix socket in
//! the same directory), one database created; `pg_ctl stop -m fast` when the guard drops.
//!
//! The binaries are looked for under `/usr/lib/postgresql/*/bin` (the newest version) or
//! in `$URLKIT_PG_BIN`. PostgreSQL refuses to run as root: as root, the directory is given
//! to `nobody` and the server's commands run as that user through `runuser`.
//!
//! Without the binaries, [`Postgres::start`] returns `None` after printing
//! `skipped: needs PostgreSQL (initdb)` with the test's name, and the test passes, except
//! under `CI=true`, where missing PostgreSQL fails the test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A running server; stopped (and its directory removed) on drop.
pub struct Postgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    as_nobody: bool,
}

/// The directory of the newest PostgreSQL's binaries, if installed.
fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("URLKIT_PG_BIN") {
        let dir = PathBuf::from(dir);
        return dir.join("initdb").exists().then_some(dir);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| out.stdout.trim_ascii() == b"0")
        .unwrap_or(false)
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Postgres {
    /// Starts a server with a database `purl`, or `None` (the test skipped) when PostgreSQL
    /// is not installed and `CI` is not `true`.
    pub fn start(test: &str) -> Option<Postgres> {
        let Some(bin) = bin_dir() else {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{test}: PostgreSQL (initdb) is not installed, and CI=true needs it");
            }
            eprintln!("{test}: skipped: needs PostgreSQL (initdb)");
            return None;
        };
        // A short path: the socket's path must fit in 107 bytes.
        let dir = tempfile::Builder::new()
            .prefix("urlkit-pg-")
            .tempdir_in("/tmp")
            .unwrap();
        let as_nobody = is_root();
        let mut server = Postgres {
            bin,
            dir,
            port: 0,
            as_nobody,
        };
        if as_nobody {
            std::os::unix::fs::chown(server.dir.path(), Some(65534), Some(65534)).unwrap();
        }
        let data = server.data();
        server.run(
            "initdb",
            &[
                "-D",
                path(&data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        );
        // A port can be taken between the probe and the start: try a few.
        for attempt in 0..5 {
            server.port = free_port();
            let started = server.pg_ctl_start();
            if started.is_ok() {
                break;
            }
            let log = std::fs::read_to_string(server.log()).unwrap_or_default();
            if attempt == 4 || !log.contains("in use") {
                panic!("{}", started.unwrap_err());
            }
        }
        server.create_database("purl");
        Some(server)
    }

    /// `pg_ctl start` on the data directory and port; the error says why not (with the
    /// server's log).
    fn pg_ctl_start(&self) -> Result<(), String> {
        let options = format!(
            "-h 127.0.0.1 -p {} -k {} -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c max_connections=100",
            self.port,
            path(self.dir.path()),
        );
        let log = self.log();
        let data = self.data();
        let started = self.try_run(
            "pg_ctl",
            &[
                "start",
                "-w",
                "-t",
                "60",
                "-D",
                path(&data),
                "-l",
                path(&log),
                "-o",
                &options,
            ],
        );
        if started.status.success() {
            return Ok(());
        }
        Err(format!(
            "pg_ctl start failed: {}{}\n{}",
            String::from_utf8_lossy(&started.stdout),
            String::from_utf8_lossy(&started.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        ))
    }

    /// Stops the server (`pg_ctl stop -m fast`: open connections are ended), keeping its
    /// data for [`Postgres::start_again`].
    pub fn stop(&self) {
        let data = self.data();
        self.run("pg_ctl", &["stop", "-m", "fast", "-w", "-D", path(&data)]);
    }

    /// Starts the stopped server again on the same data directory and port.
    pub fn start_again(&self) {
        if let Err(error) = self.pg_ctl_start() {
            panic!("{error}");
        }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    /// Creates another database on this server.
    pub fn create_database(&self, name: &str) {
        let port = self.port.to_string();
        self.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", name],
        );
    }

    /// The address of the database `purl`.
    pub fn url(&self) -> String {
        self.url_of("purl")
    }

    /// The address of the database `name`.
    pub fn url_of(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn try_run(&self, program: &str, args: &[&str]) -> Output {
        let program = self.bin.join(program);
        let mut command = if self.as_nobody {
            let mut command = Command::new("runuser");
            command.args(["-u", "nobody", "--"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        command
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap_or_else(|error| panic!("cannot run {}: {error}", program.display()))
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self.try_run(program, args);
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a temporary path in UTF-8")
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.try_run("pg_ctl", &["stop", "-m", "fast", "-w", "-D", path(&data)]);
    }
}
