//! Where file results wait for their one download.
//!
//! [`ResultStore`] is the small interface the server needs; [`DirStore`] implements it on
//! a local directory, [`crate::bucket::BucketStore`] on S3 or a compatible object store.
//!
//! Life of a result: [`ResultStore::create`] gives a writer to a pending entry;
//! [`ResultStore::commit`] makes it downloadable (or [`ResultStore::discard`] drops it);
//! the first [`ResultStore::claim`] takes it away atomically, so every later claim finds
//! nothing; [`ResultStore::sweep`] deletes entries older than the time to live.
//!
//! A result is never visible before it is complete: it is written under a pending name and
//! renamed when the upload has been processed, and a process killed at any point leaves
//! only pending or claimed names behind, which [`DirStore::open`] removes at start-up.
//!
//! A quota ([`DirStore::with_quota`]) bounds the bytes held by pending and committed
//! entries; a write that would exceed it fails with [`io::ErrorKind::StorageFull`].

use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A boxed future, so the trait can be used as `dyn ResultStore`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
/// Where a result is written.
pub type ResultWriter = Pin<Box<dyn AsyncWrite + Send>>;
/// A claimed result: its length and its bytes. Dropping it (download finished or the
/// client went away) releases the storage.
pub type ClaimedResult = (u64, Pin<Box<dyn AsyncRead + Send>>);

/// Storage for results downloadable once.
pub trait ResultStore: Send + Sync + 'static {
    /// Starts a new pending entry under `id` and returns its writer.
    fn create<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<ResultWriter>>;
    /// Makes the pending entry downloadable.
    fn commit<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<()>>;
    /// Deletes the pending entry (failed or rejected processing). Missing entries are fine.
    fn discard<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<()>>;
    /// Takes the entry away for its one download: exactly one of any number of concurrent
    /// claims gets it; the others, and every later claim, get `None`. An entry older than
    /// `ttl` is deleted and gives `None`.
    fn claim<'a>(
        &'a self,
        id: &'a ResultId,
        ttl: Duration,
    ) -> BoxFuture<'a, io::Result<Option<ClaimedResult>>>;
    /// Deletes entries (pending or committed) last written more than `ttl` ago; returns how
    /// many results expired.
    fn sweep(&self, ttl: Duration) -> BoxFuture<'_, io::Result<usize>>;
    /// Whether the store can be reached and used now (for the readiness check).
    fn check(&self) -> BoxFuture<'_, io::Result<()>>;
}

/// An unguessable result id: 128 random bits as 32 lower-case hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResultId(String);

impl ResultId {
    /// A fresh id from the operating system's random source.
    pub fn random() -> io::Result<ResultId> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
        Ok(ResultId(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The id in `text`, or `None` when it is not 32 lower-case hex digits (so a path
    /// segment can never name another file).
    pub fn parse(text: &str) -> Option<ResultId> {
        let ok = text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        ok.then(|| ResultId(text.to_string()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ResultId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

const PENDING: &str = "pending";
const READY: &str = "ready";
const CLAIMED: &str = "claimed";

/// Results as files in one directory: `ID.pending` while written, `ID.ready` once
/// committed, `ID.claimed` for the instant between the claiming rename and the unlink.
pub struct DirStore {
    dir: PathBuf,
    usage: Arc<Usage>,
}

/// Bytes held per entry, and in all, against the optional quota.
#[derive(Default)]
struct Usage {
    quota: Option<u64>,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    total: u64,
    entries: std::collections::HashMap<String, u64>,
}

impl Usage {
    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // The counters stay consistent even if a holder panicked: every update is one step.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fails when `more` bytes would take the store past its quota.
    fn check(&self, more: u64) -> io::Result<()> {
        match self.quota {
            Some(quota) if self.held().total.saturating_add(more) > quota => Err(io::Error::new(
                io::ErrorKind::StorageFull,
                format!("the result store is full (quota {quota} bytes)"),
            )),
            _ => Ok(()),
        }
    }

    fn add(&self, id: &ResultId, bytes: u64) {
        let mut held = self.held();
        held.total += bytes;
        *held.entries.entry(id.as_str().to_owned()).or_default() += bytes;
    }

    fn release(&self, id: &str) {
        let mut held = self.held();
        if let Some(bytes) = held.entries.remove(id) {
            held.total -= bytes;
        }
    }
}

/// A pending entry's writer: counts what it accepts against the quota.
struct CountingWriter<W> {
    inner: W,
    id: ResultId,
    usage: Arc<Usage>,
}

impl<W: AsyncWrite + Unpin> AsyncWrite for CountingWriter<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.usage.check(buf.len() as u64)?;
        let this = &mut *self;
        let written = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = written {
            this.usage.add(&this.id, n as u64);
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A claimed entry's reader: gives its bytes back to the quota when dropped.
struct ReleasingReader {
    file: tokio::fs::File,
    id: ResultId,
    usage: Arc<Usage>,
}

impl AsyncRead for ReleasingReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.file).poll_read(cx, buf)
    }
}

impl Drop for ReleasingReader {
    fn drop(&mut self) {
        self.usage.release(self.id.as_str());
    }
}

impl DirStore {
    /// Uses `dir` (created with mode 0700 if missing) and removes the entries a previous
    /// run left behind. Other files in `dir` are left alone. Fails when `dir` cannot be
    /// created or read.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<DirStore> {
        let dir = dir.into();
        if !dir.exists() {
            use std::os::unix::fs::DirBuilderExt;
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir)?;
        }
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if is_ours(&path) {
                let _ = std::fs::remove_file(&path);
            }
        }
        Ok(DirStore {
            dir,
            usage: Arc::default(),
        })
    }

    /// Limits the bytes held by pending and downloadable entries (and by downloads still in
    /// progress) to `quota`; `None` is no limit. Past it, writes fail with
    /// [`io::ErrorKind::StorageFull`] and the entry being written should be discarded.
    pub fn with_quota(self, quota: Option<u64>) -> DirStore {
        DirStore {
            dir: self.dir,
            usage: Arc::new(Usage {
                quota,
                held: Mutex::default(),
            }),
        }
    }

    /// Bytes currently held against the quota.
    pub fn held_bytes(&self) -> u64 {
        self.usage.held().total
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: &ResultId, state: &str) -> PathBuf {
        self.dir.join(format!("{id}.{state}"))
    }
}

fn is_ours(path: &Path) -> bool {
    let stem_ok = path
        .file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| ResultId::parse(s).is_some());
    let ext_ok = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| [PENDING, READY, CLAIMED].contains(&e));
    stem_ok && ext_ok
}

fn expired(modified: io::Result<SystemTime>, ttl: Duration) -> bool {
    modified
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .is_some_and(|age| age > ttl)
}

impl ResultStore for DirStore {
    fn create<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<ResultWriter>> {
        Box::pin(async move {
            let file = tokio::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(self.path(id, PENDING))
                .await?;
            let writer: ResultWriter = Box::pin(CountingWriter {
                inner: tokio::io::BufWriter::with_capacity(256 * 1024, file),
                id: id.clone(),
                usage: Arc::clone(&self.usage),
            });
            Ok(writer)
        })
    }

    fn commit<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(tokio::fs::rename(
            self.path(id, PENDING),
            self.path(id, READY),
        ))
    }

    fn discard<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            self.usage.release(id.as_str());
            match tokio::fs::remove_file(self.path(id, PENDING)).await {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        })
    }

    fn claim<'a>(
        &'a self,
        id: &'a ResultId,
        ttl: Duration,
    ) -> BoxFuture<'a, io::Result<Option<ClaimedResult>>> {
        Box::pin(async move {
            let claimed = self.path(id, CLAIMED);
            // The rename is the claim: atomic, so exactly one concurrent caller wins.
            match tokio::fs::rename(self.path(id, READY), &claimed).await {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(e),
            }
            let opened = tokio::fs::File::open(&claimed).await;
            // Unlinked at once: the open handle keeps the bytes until the download ends or
            // the client goes away, and nothing is left behind if the process dies.
            let removed = tokio::fs::remove_file(&claimed).await;
            let file = match (opened, removed) {
                (Ok(file), Ok(())) => file,
                (Err(e), _) | (_, Err(e)) => {
                    self.usage.release(id.as_str());
                    return Err(e);
                }
            };
            let reader = ReleasingReader {
                file,
                id: id.clone(),
                usage: Arc::clone(&self.usage),
            };
            let metadata = reader.file.metadata().await?;
            if expired(metadata.modified(), ttl) {
                return Ok(None);
            }
            Ok(Some((
                metadata.len(),
                Box::pin(reader) as Pin<Box<dyn AsyncRead + Send>>,
            )))
        })
    }

    fn sweep(&self, ttl: Duration) -> BoxFuture<'_, io::Result<usize>> {
        Box::pin(async move {
            let mut removed = 0;
            let mut entries = tokio::fs::read_dir(&self.dir).await?;
            while let Some(entry) = entries.next_entry().await? {
                let path = entry.path();
                if !is_ours(&path) {
                    continue;
                }
                let modified = entry.metadata().await.and_then(|m| m.modified());
                if expired(modified, ttl) && tokio::fs::remove_file(&path).await.is_ok() {
                    if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                        self.usage.release(stem);
                    }
                    removed += 1;
                }
            }
            Ok(removed)
        })
    }

    fn check(&self) -> BoxFuture<'_, io::Result<()>> {
        Box::pin(async move {
            let metadata = tokio::fs::metadata(&self.dir).await?;
            if metadata.is_dir() {
                Ok(())
            } else {
                Err(io::Error::other(format!(
                    "{} is not a directory",
                    self.dir.display()
                )))
            }
        })
    }
}

/// A private temporary directory (mode 0700, random name) for the default store.
pub fn private_temp_dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let id = ResultId::random()?;
    let dir = std::env::temp_dir().join(format!("urlkit-{}", &id.as_str()[..16]));
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}
