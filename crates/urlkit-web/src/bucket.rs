//! Results in an object store (S3 or a compatible service, through `object_store`), shared
//! by any number of server instances.
//!
//! Layout under the store's prefix:
//!
//! * `data/ID`: the result, written in one `PUT` when it is small, else as a multipart
//!   upload of [`PART_SIZE`] parts, so nothing is held whole in memory. It appears complete
//!   or not at all.
//! * `pending/ID`: while a multipart upload is in progress, its upload id, written again
//!   with every part, so that any instance can abort the upload once the marker is older
//!   than the time to live (its writer died).
//! * `claimed/ID`: the one download's claim. It is created with `PutMode::Create` (on S3,
//!   `If-None-Match: *`), which exactly one of any number of concurrent requests on any
//!   mix of instances wins; the others get `None` (a 404). The winner streams `data/ID`
//!   and deletes it, then the claim.
//!
//! Every instance sweeps: results older than the time to live go (unless a download of
//! theirs is under way), claims once their result is gone, abandoned multipart uploads are
//! aborted. Deletes are idempotent and an abort of an aborted upload is ignored, so
//! instances may sweep at once. Nothing is deleted at start-up: the other instances' results
//! are theirs until they expire.
//!
//! The quota is shared only approximately: each sweep totals the results listed, and each
//! instance adds what it has written since.

use crate::store::{BoxFuture, ClaimedResult, ResultId, ResultStore, ResultWriter};
use anyhow::Context as _;
use futures_util::StreamExt;
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{MultipartId, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};
use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncRead, AsyncWrite};

/// Bytes per part of a multipart upload (S3's smallest part but the last); a result that
/// fits in one is written in one `PUT`.
pub const PART_SIZE: usize = 5 << 20;

/// A claim older than this no longer protects its result from expiry (its download would
/// have ended, or its instance died).
pub const CLAIM_LIMIT: Duration = Duration::from_secs(60 * 60);

/// What the bucket needs of a store: objects, and multipart uploads by id.
pub trait Backend: ObjectStore + MultipartStore {}
impl<T: ObjectStore + MultipartStore> Backend for T {}

/// Results in an object store.
pub struct BucketStore {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Arc<dyn Backend>,
    prefix: Path,
    quota: Option<u64>,
    /// Bytes of results found by the last sweep.
    listed: AtomicU64,
    /// Bytes written by this instance since the last sweep.
    written: AtomicU64,
}

impl Inner {
    fn path(&self, kind: &str, id: &ResultId) -> Path {
        self.prefix.clone().join(kind).join(id.as_str())
    }

    /// Fails when `more` bytes would take the store past its quota.
    fn check_quota(&self, more: u64) -> io::Result<()> {
        let Some(quota) = self.quota else {
            return Ok(());
        };
        let held = self.listed.load(Ordering::Relaxed) + self.written.load(Ordering::Relaxed);
        if held.saturating_add(more) > quota {
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                format!("the result store is full (quota {quota} bytes)"),
            ));
        }
        self.written.fetch_add(more, Ordering::Relaxed);
        Ok(())
    }
}

fn store_error(error: object_store::Error) -> io::Error {
    io::Error::from(error)
}

impl BucketStore {
    /// Results under `prefix` of `backend`, at most `quota` bytes (approximately, see the
    /// module documentation).
    pub fn new(backend: Arc<dyn Backend>, prefix: &str, quota: Option<u64>) -> BucketStore {
        BucketStore {
            inner: Arc::new(Inner {
                backend,
                prefix: Path::from(prefix),
                quota,
                listed: AtomicU64::new(0),
                written: AtomicU64::new(0),
            }),
        }
    }

    /// The S3 bucket and prefix of `url` (`s3://bucket/prefix`), with credentials, region
    /// and endpoint from the `AWS_*` variables (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT_URL`, …) unless `endpoint` or
    /// `region` say otherwise. An `http://` endpoint is allowed. Requests time out after
    /// 30 s and are retried twice within 10 s, so an outage shows as errors at once rather
    /// than as requests hanging.
    pub fn s3(
        url: &str,
        endpoint: Option<&str>,
        region: Option<&str>,
        quota: Option<u64>,
    ) -> anyhow::Result<BucketStore> {
        let rest = url
            .strip_prefix("s3://")
            .with_context(|| format!("{url:?} is not an s3:// URL"))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        anyhow::ensure!(!bucket.is_empty(), "{url:?} names no bucket");
        let mut builder = object_store::aws::AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .with_retry(object_store::RetryConfig {
                backoff: object_store::BackoffConfig {
                    init_backoff: Duration::from_millis(100),
                    max_backoff: Duration::from_secs(2),
                    base: 2.0,
                },
                max_retries: 2,
                retry_timeout: Duration::from_secs(10),
            })
            .with_client_options(
                object_store::ClientOptions::new()
                    .with_connect_timeout(Duration::from_secs(3))
                    .with_timeout(Duration::from_secs(30)),
            );
        if let Some(endpoint) = endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if endpoint.is_some_and(|e| e.starts_with("http://"))
            || std::env::var("AWS_ENDPOINT_URL").is_ok_and(|e| e.starts_with("http://"))
            || std::env::var("AWS_ENDPOINT").is_ok_and(|e| e.starts_with("http://"))
        {
            builder = builder.with_allow_http(true);
        }
        if let Some(region) = region {
            builder = builder.with_region(region);
        }
        let s3 = builder
            .build()
            .with_context(|| format!("cannot use {url} as the result store"))?;
        Ok(BucketStore::new(
            Arc::new(s3),
            prefix.trim_matches('/'),
            quota,
        ))
    }

    /// Checks that the store honours conditional creation, on which once-only downloads
    /// rest: a second create of one name must fail. An unreachable store is an `Err`
    /// of kind other than `Unsupported`; a store that lets the second create through is
    /// `Unsupported`.
    pub async fn check_conditional_create(&self) -> io::Result<()> {
        let probe = self
            .inner
            .prefix
            .clone()
            .join("probe")
            .join(ResultId::random()?.as_str());
        let create = || PutOptions::from(PutMode::Create);
        let backend = &self.inner.backend;
        let first = backend
            .put_opts(&probe, PutPayload::default(), create())
            .await;
        if let Err(object_store::Error::NotImplemented { .. }) = first {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "the store does not take conditional writes",
            ));
        }
        first.map_err(store_error)?;
        let second = backend
            .put_opts(&probe, PutPayload::default(), create())
            .await;
        let _ = backend.delete(&probe).await;
        match second {
            Err(object_store::Error::AlreadyExists { .. }) => Ok(()),
            Ok(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "the store let a second conditional create of one name through",
            )),
            Err(e) => Err(store_error(e)),
        }
    }
}

impl ResultStore for BucketStore {
    fn create<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<ResultWriter>> {
        Box::pin(async move {
            let writer: ResultWriter = Box::pin(BucketWriter {
                inner: Arc::clone(&self.inner),
                id: id.clone(),
                buffer: Vec::new(),
                upload: None,
                step: None,
                done: false,
            });
            Ok(writer)
        })
    }

    fn commit<'a>(&'a self, _id: &'a ResultId) -> BoxFuture<'a, io::Result<()>> {
        // The result appeared, complete, when its writer was shut down; its id has not been
        // given to anyone yet.
        Box::pin(async { Ok(()) })
    }

    fn discard<'a>(&'a self, id: &'a ResultId) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(delete(&self.inner, "data", id))
    }

    fn claim<'a>(
        &'a self,
        id: &'a ResultId,
        ttl: Duration,
    ) -> BoxFuture<'a, io::Result<Option<ClaimedResult>>> {
        Box::pin(async move {
            let inner = &self.inner;
            let data = inner.path("data", id);
            let meta = match inner.backend.head(&data).await {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(store_error(e)),
            };
            if expired(meta.last_modified.into(), ttl) {
                return Ok(None);
            }
            // The claim: exactly one create of this name succeeds, on any instance.
            let claim = inner.path("claimed", id);
            let created = inner
                .backend
                .put_opts(
                    &claim,
                    PutPayload::default(),
                    PutOptions::from(PutMode::Create),
                )
                .await;
            match created {
                Ok(_) => {}
                Err(object_store::Error::AlreadyExists { .. }) => return Ok(None),
                Err(e) => return Err(store_error(e)),
            }
            let got = match inner.backend.get(&data).await {
                Ok(got) => got,
                Err(e) => {
                    // Nobody has the bytes: the claim goes, so that the result (if it is
                    // still there) can be downloaded once after all.
                    let _ = delete(inner, "claimed", id).await;
                    return match e {
                        object_store::Error::NotFound { .. } => Ok(None),
                        e => Err(store_error(e)),
                    };
                }
            };
            let release = Release {
                inner: Arc::clone(inner),
                id: id.clone(),
            };
            let size = got.meta.size;
            let stream = got.into_stream().map(|chunk| chunk.map_err(store_error));
            let reader = ClaimedReader {
                reader: tokio_util::io::StreamReader::new(stream.boxed()),
                _release: release,
            };
            Ok(Some((
                size,
                Box::pin(reader) as Pin<Box<dyn AsyncRead + Send>>,
            )))
        })
    }

    fn sweep(&self, ttl: Duration) -> BoxFuture<'_, io::Result<usize>> {
        Box::pin(async move {
            let inner = &self.inner;
            let mut entries: HashMap<String, Entry> = HashMap::new();
            let mut listing = inner.backend.list(Some(&inner.prefix));
            let written_before = inner.written.load(Ordering::Relaxed);
            while let Some(meta) = listing.next().await {
                let meta = meta.map_err(store_error)?;
                let mut parts = meta.location.parts().collect::<Vec<_>>().into_iter().rev();
                let (Some(name), Some(kind)) = (parts.next(), parts.next()) else {
                    continue;
                };
                if ResultId::parse(name.as_ref()).is_none() {
                    continue;
                }
                let entry = entries.entry(name.as_ref().to_owned()).or_default();
                let age = age(meta.last_modified.into());
                match kind.as_ref() {
                    "data" => entry.data = Some((age, meta.size)),
                    "claimed" => entry.claimed = Some(age),
                    "pending" => entry.pending = Some(age),
                    _ => {}
                }
            }
            let mut expired_results = 0;
            let mut held = 0;
            for (name, entry) in entries {
                let Some(id) = ResultId::parse(&name) else {
                    continue;
                };
                let claim_protects = entry.claimed.is_some_and(|age| age <= CLAIM_LIMIT);
                let data_left = match entry.data {
                    Some((age, _)) if age > ttl && !claim_protects => {
                        delete(inner, "data", &id).await?;
                        expired_results += 1;
                        false
                    }
                    Some((_, size)) => {
                        held += size;
                        true
                    }
                    None => false,
                };
                if entry.claimed.is_some() && !data_left && !claim_protects {
                    delete(inner, "claimed", &id).await?;
                }
                if entry.pending.is_some_and(|age| age > ttl) {
                    abort_pending(inner, &id).await?;
                }
            }
            inner.listed.store(held, Ordering::Relaxed);
            // What was written during the listing may not be in it; count it once more.
            let written_since = inner
                .written
                .load(Ordering::Relaxed)
                .saturating_sub(written_before);
            inner.written.store(written_since, Ordering::Relaxed);
            Ok(expired_results)
        })
    }

    fn check(&self) -> BoxFuture<'_, io::Result<()>> {
        Box::pin(async move {
            let probe = self.inner.prefix.clone().join("probe").join("ready");
            match self.inner.backend.head(&probe).await {
                Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(e) => Err(store_error(e)),
            }
        })
    }
}

/// What a sweep found of one result: ages (and the size of the data).
#[derive(Default)]
struct Entry {
    data: Option<(Duration, u64)>,
    claimed: Option<Duration>,
    pending: Option<Duration>,
}

fn age(modified: SystemTime) -> Duration {
    SystemTime::now()
        .duration_since(modified)
        .unwrap_or_default()
}

fn expired(modified: SystemTime, ttl: Duration) -> bool {
    age(modified) > ttl
}

async fn delete(inner: &Inner, kind: &str, id: &ResultId) -> io::Result<()> {
    match inner.backend.delete(&inner.path(kind, id)).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(store_error(e)),
    }
}

/// Aborts the multipart upload a `pending/ID` marker names, then removes the marker. An
/// upload already completed or aborted (by another sweeper) is no error.
async fn abort_pending(inner: &Inner, id: &ResultId) -> io::Result<()> {
    let marker = inner.path("pending", id);
    let upload = match inner.backend.get(&marker).await {
        Ok(got) => got.bytes().await.map_err(store_error)?,
        Err(object_store::Error::NotFound { .. }) => return Ok(()),
        Err(e) => return Err(store_error(e)),
    };
    let upload: MultipartId = String::from_utf8_lossy(&upload).into_owned();
    let _ = inner
        .backend
        .abort_multipart(&inner.path("data", id), &upload)
        .await;
    delete(inner, "pending", id).await
}

/// Deletes a claimed result once its download is over (finished, failed or abandoned),
/// then its claim.
struct Release {
    inner: Arc<Inner>,
    id: ResultId,
}

impl Drop for Release {
    fn drop(&mut self) {
        let inner = Arc::clone(&self.inner);
        let id = self.id.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if delete(&inner, "data", &id).await.is_ok() {
                    let _ = delete(&inner, "claimed", &id).await;
                }
            });
        }
    }
}

type ChunkStream = futures_util::stream::BoxStream<'static, io::Result<axum::body::Bytes>>;

/// A claimed result's bytes; dropping it deletes the result.
struct ClaimedReader {
    reader: tokio_util::io::StreamReader<ChunkStream, axum::body::Bytes>,
    _release: Release,
}

impl AsyncRead for ClaimedReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.reader).poll_read(cx, buf)
    }
}

/// A multipart upload in progress.
struct Upload {
    id: MultipartId,
    parts: Vec<PartId>,
}

impl Upload {
    /// Sends `part` as the next part of the upload to `data`.
    async fn send(&mut self, inner: &Inner, data: &Path, part: PutPayload) -> io::Result<()> {
        let index = self.parts.len();
        let sent = inner
            .backend
            .put_part(data, &self.id, index, part)
            .await
            .map_err(store_error)?;
        self.parts.push(sent);
        Ok(())
    }
}

type Step = BoxFuture<'static, io::Result<Option<Upload>>>;

/// Writes a result: parts of [`PART_SIZE`] as they fill, the rest when shut down. Dropped
/// before it is shut down, it aborts its multipart upload.
struct BucketWriter {
    inner: Arc<Inner>,
    id: ResultId,
    buffer: Vec<u8>,
    upload: Option<Upload>,
    /// The store request under way, which gives the upload back.
    step: Option<Step>,
    done: bool,
}

impl BucketWriter {
    /// Drives the request under way to its end.
    fn poll_step(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(step) = self.step.as_mut() {
            let upload = std::task::ready!(step.as_mut().poll(cx));
            self.step = None;
            self.upload = upload?;
        }
        Poll::Ready(Ok(()))
    }

    /// Sends the buffer as the next part, starting the multipart upload (and its marker)
    /// with the first.
    fn send_part(&mut self) {
        let inner = Arc::clone(&self.inner);
        let id = self.id.clone();
        let part = PutPayload::from(std::mem::take(&mut self.buffer));
        let upload = self.upload.take();
        self.step = Some(Box::pin(async move {
            let data = inner.path("data", &id);
            let mut upload = match upload {
                Some(upload) => upload,
                None => {
                    let upload_id = inner
                        .backend
                        .create_multipart(&data)
                        .await
                        .map_err(store_error)?;
                    inner
                        .backend
                        .put(&inner.path("pending", &id), upload_id.clone().into())
                        .await
                        .map_err(store_error)?;
                    Upload {
                        id: upload_id,
                        parts: Vec::new(),
                    }
                }
            };
            let first = upload.parts.is_empty();
            upload.send(&inner, &data, part).await?;
            if !first {
                // The upload is alive: its marker is young again.
                inner
                    .backend
                    .put(&inner.path("pending", &id), upload.id.clone().into())
                    .await
                    .map_err(store_error)?;
            }
            Ok(Some(upload))
        }));
    }

    /// Completes the result: one `PUT`, or the last part and the completion.
    fn send_last(&mut self) {
        let inner = Arc::clone(&self.inner);
        let id = self.id.clone();
        let rest = PutPayload::from(std::mem::take(&mut self.buffer));
        let upload = self.upload.take();
        self.step = Some(Box::pin(async move {
            let data = inner.path("data", &id);
            match upload {
                None => {
                    inner.backend.put(&data, rest).await.map_err(store_error)?;
                }
                Some(mut upload) => {
                    if rest.content_length() > 0 || upload.parts.is_empty() {
                        upload.send(&inner, &data, rest).await?;
                    }
                    inner
                        .backend
                        .complete_multipart(&data, &upload.id, upload.parts)
                        .await
                        .map_err(store_error)?;
                    let _ = inner.backend.delete(&inner.path("pending", &id)).await;
                }
            }
            Ok(None)
        }));
    }
}

impl AsyncWrite for BucketWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_step(cx))?;
        if this.done {
            return Poll::Ready(Err(io::Error::other("the result is already complete")));
        }
        let take = buf.len().min(PART_SIZE - this.buffer.len());
        this.inner.check_quota(take as u64)?;
        this.buffer.extend_from_slice(&buf[..take]);
        if this.buffer.len() == PART_SIZE {
            this.send_part();
        }
        Poll::Ready(Ok(take))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_step(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.poll_step(cx))?;
        if !this.done {
            this.done = true;
            this.send_last();
            std::task::ready!(this.poll_step(cx))?;
        }
        Poll::Ready(Ok(()))
    }
}

impl Drop for BucketWriter {
    fn drop(&mut self) {
        if self.done && self.step.is_none() {
            return;
        }
        // Unfinished: abort the multipart upload, here or (while its part is still being
        // sent) from the marker.
        let inner = Arc::clone(&self.inner);
        let id = self.id.clone();
        let upload = self.upload.take();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                match upload {
                    Some(upload) => {
                        let data = inner.path("data", &id);
                        let _ = inner.backend.abort_multipart(&data, &upload.id).await;
                        let _ = delete(&inner, "pending", &id).await;
                    }
                    None => {
                        let _ = abort_pending(&inner, &id).await;
                    }
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn bucket(quota: Option<u64>) -> (BucketStore, Arc<InMemory>) {
        let memory = Arc::new(InMemory::new());
        (BucketStore::new(memory.clone(), "results", quota), memory)
    }

    async fn names(memory: &InMemory) -> Vec<String> {
        let mut names: Vec<String> = memory
            .list(None)
            .map(|m| m.unwrap().location.to_string())
            .collect()
            .await;
        names.sort();
        names
    }

    async fn store(bucket: &BucketStore, bytes: &[u8]) -> ResultId {
        let id = ResultId::random().unwrap();
        let mut writer = bucket.create(&id).await.unwrap();
        for piece in bytes.chunks(300_000) {
            writer.write_all(piece).await.unwrap();
        }
        writer.shutdown().await.unwrap();
        drop(writer);
        bucket.commit(&id).await.unwrap();
        id
    }

    async fn download(bucket: &BucketStore, id: &ResultId) -> Option<Vec<u8>> {
        let (size, mut reader) = bucket.claim(id, Duration::from_secs(60)).await.unwrap()?;
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await.unwrap();
        assert_eq!(size, bytes.len() as u64);
        Some(bytes)
    }

    /// Lets the deletes spawned by a dropped download or writer run.
    async fn settle() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    #[tokio::test]
    async fn small_and_multipart_results_download_once() {
        let (bucket, memory) = bucket(None);
        let large: Vec<u8> = (0..PART_SIZE * 2 + 12_345)
            .map(|i| (i % 251) as u8)
            .collect();
        for content in [b"%41".to_vec(), Vec::new(), large] {
            let id = store(&bucket, &content).await;
            assert_eq!(names(&memory).await, [format!("results/data/{id}")]);
            assert!(download(&bucket, &id).await == Some(content));
            assert_eq!(download(&bucket, &id).await, None);
            settle().await;
            assert!(
                names(&memory).await.is_empty(),
                "{:?}",
                names(&memory).await
            );
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn of_fifty_concurrent_claims_one_gets_the_result() {
        let (bucket, _) = bucket(None);
        let bucket = Arc::new(bucket);
        let id = store(&bucket, b"once").await;
        let barrier = Arc::new(tokio::sync::Barrier::new(50));
        let claims: Vec<_> = (0..50)
            .map(|_| {
                let (bucket, id, barrier) = (bucket.clone(), id.clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    download(&bucket, &id).await
                })
            })
            .collect();
        let mut winners = 0;
        for claim in claims {
            if let Some(bytes) = claim.await.unwrap() {
                assert_eq!(bytes, b"once");
                winners += 1;
            }
        }
        assert_eq!(winners, 1);
    }

    #[tokio::test]
    async fn an_unfinished_writer_aborts_its_upload() {
        let (bucket, memory) = bucket(None);
        let id = ResultId::random().unwrap();
        let mut writer = bucket.create(&id).await.unwrap();
        writer.write_all(&vec![7u8; PART_SIZE + 10]).await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(names(&memory).await, [format!("results/pending/{id}")]);
        drop(writer);
        settle().await;
        assert!(names(&memory).await.is_empty());
        assert_eq!(download(&bucket, &id).await, None);
    }

    #[tokio::test]
    async fn sweeps_expire_results_claims_and_abandoned_uploads_but_not_downloads() {
        let (bucket, memory) = bucket(None);
        let waiting = store(&bucket, b"unfetched").await;
        let downloading = store(&bucket, b"being downloaded").await;
        let (_, reader) = bucket
            .claim(&downloading, Duration::from_secs(60))
            .await
            .unwrap()
            .unwrap();
        // A writer that died after its first part: only its marker and upload are left.
        let abandoned = ResultId::random().unwrap();
        let mut writer = bucket.create(&abandoned).await.unwrap();
        writer.write_all(&vec![1u8; PART_SIZE]).await.unwrap();
        writer.flush().await.unwrap();
        std::mem::forget(writer);
        tokio::time::sleep(Duration::from_millis(20)).await;
        // Two instances sweeping at once.
        let (first, second) =
            tokio::join!(bucket.sweep(Duration::ZERO), bucket.sweep(Duration::ZERO));
        // Either may count the expired result (a delete cannot tell who removed it).
        assert!((1..=2).contains(&(first.unwrap() + second.unwrap())));
        assert_eq!(
            names(&memory).await,
            [
                format!("results/claimed/{downloading}"),
                format!("results/data/{downloading}")
            ]
        );
        assert_eq!(download(&bucket, &waiting).await, None);
        drop(reader);
        settle().await;
        assert!(names(&memory).await.is_empty());
    }

    #[tokio::test]
    async fn the_quota_counts_what_is_written_and_what_the_sweep_finds() {
        let (bucket, _) = bucket(Some(1000));
        store(&bucket, &[0u8; 600]).await;
        let id = ResultId::random().unwrap();
        let mut writer = bucket.create(&id).await.unwrap();
        let full = writer.write_all(&[0u8; 600]).await.unwrap_err();
        assert_eq!(full.kind(), io::ErrorKind::StorageFull);
        drop(writer);
        // A sweep recounts from the listing: one result of 600 bytes.
        bucket.sweep(Duration::from_secs(60)).await.unwrap();
        store(&bucket, &[0u8; 300]).await;
        let mut writer = bucket.create(&id).await.unwrap();
        assert!(writer.write_all(&[0u8; 200]).await.is_err());
    }

    #[tokio::test]
    async fn conditional_creation_is_checked() {
        let (bucket, _) = bucket(None);
        bucket.check_conditional_create().await.unwrap();
        bucket.check().await.unwrap();
    }
}
