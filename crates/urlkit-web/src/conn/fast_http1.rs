//! HTTP/1.1 requests a [`FastPath`] answers, read and answered on the connection's task
//! without going through hyper: each request head is parsed where it was read, the answer
//! written as hyper would write it (the same status line, headers in the same order, its
//! `date`), and requests sent one after another on the connection answered in one write.
//!
//! The first request this path does not take whole — another method, a body, an upgrade,
//! HTTP/1.0 or HTTP/2, a head it cannot parse or longer than [`MOST_HEAD_BYTES`], a request
//! the fast path passes on — hands the connection to hyper with every byte read and not
//! answered, so hyper answers it (errors included) exactly as it would have from the start.

use super::{Activity, FastPath, PlainAnswer, PlainRequest};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{HeaderMap, Method, Response, StatusCode, Uri};
use bytes::{Buf, Bytes, BytesMut};
use std::io;
use std::mem::MaybeUninit;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

/// The longest request head read here; a longer one is left to hyper and its limits.
pub(super) const MOST_HEAD_BYTES: usize = 16 * 1024;

/// The most header fields of a request head read here (hyper's own limit).
const MOST_HEADERS: usize = 100;

/// What became of a connection answered here.
pub(super) enum Ended<I> {
    /// Closed: by the client, after a `Connection: close`, or for shutdown.
    Closed,
    /// A request this path does not answer: the connection, with the bytes read and not
    /// answered before what it reads next.
    HandedOver(Prefixed<I>),
}

/// Where a request head's pieces lie in the bytes read.
pub(super) struct Span {
    start: usize,
    end: usize,
}

impl Span {
    pub(super) fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    fn of(piece: &[u8], within: &[u8]) -> Span {
        let start = piece.as_ptr() as usize - within.as_ptr() as usize;
        Span {
            start,
            end: start + piece.len(),
        }
    }
}

/// A request head this path takes, parsed (its header fields apart: see [`parse_head`]).
struct Head {
    /// Its length in the bytes read.
    length: usize,
    method: Method,
    target: Span,
    /// `Connection: close`.
    close: bool,
}

/// The next request in `read`, with its header fields' names and values in `headers`:
/// `Ok(None)` when its head has not all arrived, `Err(())` when it is not one this path
/// takes.
fn parse_head(read: &[u8], headers: &mut Vec<(Span, Span)>) -> Result<Option<Head>, ()> {
    let mut fields = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MOST_HEADERS];
    let mut request = httparse::Request::new(&mut []);
    let length = match request.parse_with_uninit_headers(read, &mut fields) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(_) => return Err(()),
    };
    if request.version != Some(1) {
        return Err(());
    }
    let method = match request.method {
        Some("GET") => Method::GET,
        Some("HEAD") => Method::HEAD,
        _ => return Err(()),
    };
    let target = Span::of(request.path.ok_or(())?.as_bytes(), read);
    let mut close = false;
    headers.clear();
    for field in request.headers.iter() {
        let name = field.name.as_bytes();
        if name.eq_ignore_ascii_case(b"connection") {
            // One value, of the two that change nothing else.
            if field.value.eq_ignore_ascii_case(b"close") {
                close = true;
            } else if !field.value.eq_ignore_ascii_case(b"keep-alive") {
                return Err(());
            }
        } else if name.eq_ignore_ascii_case(b"content-length")
            || name.eq_ignore_ascii_case(b"transfer-encoding")
            || name.eq_ignore_ascii_case(b"upgrade")
            || name.eq_ignore_ascii_case(b"expect")
        {
            return Err(());
        }
        headers.push((Span::of(name, read), Span::of(field.value, read)));
    }
    Ok(Some(Head {
        length,
        method,
        target,
        close,
    }))
}

/// Serves `io` with `fast`'s answers while its requests are ones this path takes; see the
/// module's description. Fails only when reading or writing fails.
pub(super) async fn answer_while_fast<I>(
    mut io: I,
    fast: &dyn FastPath,
    activity: &Activity,
    closing: &mut tokio::sync::watch::Receiver<bool>,
) -> io::Result<Ended<I>>
where
    I: AsyncRead + AsyncWrite + Unpin,
{
    // Waited on for the connection's life: registered once, not at every read.
    let mut shutting_down = std::pin::pin!(closing.changed());
    let mut read = BytesMut::with_capacity(8 * 1024);
    let mut written = Vec::with_capacity(1024);
    let mut fields = Vec::new();
    loop {
        let mut close = false;
        let mut handing_over = false;
        while !read.is_empty() {
            let head = match parse_head(&read, &mut fields) {
                Ok(Some(head)) => head,
                Ok(None) => {
                    handing_over = read.len() > MOST_HEAD_BYTES;
                    break;
                }
                Err(()) => {
                    handing_over = true;
                    break;
                }
            };
            if answer_plainly(&read[..head.length], &head, &fields, fast, &mut written) {
                read.advance(head.length);
                activity.answered_at_once();
                if head.close {
                    close = true;
                    break;
                }
                continue;
            }
            let bytes = read.split_to(head.length).freeze();
            let Some(answer) = answer(&bytes, &head, &fields, fast) else {
                // Back in front of the rest, for hyper to read.
                let mut rest = BytesMut::with_capacity(bytes.len() + read.len());
                rest.extend_from_slice(&bytes);
                rest.extend_from_slice(&read);
                read = rest;
                handing_over = true;
                break;
            };
            write_answer(
                &answer,
                head.method == Method::HEAD,
                head.close,
                &mut written,
            );
            activity.answered_at_once();
            if head.close {
                close = true;
                break;
            }
        }
        if !written.is_empty() {
            io.write_all(&written).await?;
            io.flush().await?;
            written.clear();
        }
        if close {
            let _ = io.shutdown().await;
            return Ok(Ended::Closed);
        }
        if handing_over {
            return Ok(Ended::HandedOver(Prefixed {
                before: read.freeze(),
                io,
            }));
        }
        read.reserve(4 * 1024);
        tokio::select! {
            biased;
            got = io.read_buf(&mut read) => {
                if got? == 0 {
                    return Ok(Ended::Closed);
                }
            }
            _ = &mut shutting_down => return Ok(Ended::Closed),
        }
    }
}

/// `fast`'s answer in parts ([`FastPath::answer_plainly`]) to the request `head` with header
/// `fields`, parsed from `bytes`, written to `out`; `false` when it gave none, or when the
/// request's target or a header is one that only [`answer`]'s checks can tell hyper takes.
fn answer_plainly(
    bytes: &[u8],
    head: &Head,
    fields: &[(Span, Span)],
    fast: &dyn FastPath,
    out: &mut Vec<u8>,
) -> bool {
    let target = &bytes[head.target.range()];
    if target.first() != Some(&b'/') || !target.iter().all(|&b| is_plain_target_byte(b)) {
        return false;
    }
    // What `HeaderValue` refuses (httparse lets DEL through).
    let refused = |b: u8| (b < b' ' && b != b'\t') || b == 0x7F;
    if fields
        .iter()
        .any(|(_, value)| bytes[value.range()].iter().any(|&b| refused(b)))
    {
        return false;
    }
    // Only RFC 3986 characters: UTF-8, and a path and query as `Uri` splits them.
    let Ok(target) = std::str::from_utf8(target) else {
        return false;
    };
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    let request = PlainRequest {
        method: &head.method,
        path,
        query,
        head: bytes,
        fields,
    };
    let head_only = head.method == Method::HEAD;
    fast.answer_plainly(&request, &mut |answer: PlainAnswer<'_>| {
        let headers = answer.headers.iter().map(|&(name, value)| (name, value));
        write_parts(
            answer.status,
            headers,
            answer.body,
            head_only,
            head.close,
            out,
        );
    })
}

/// The bytes of a request target [`answer_plainly`] takes as they are: RFC 3986's
/// unreserved and reserved characters but `#`, `[` and `]`; and `%`.
fn is_plain_target_byte(b: u8) -> bool {
    urlkit::inspect::rfc3986::is_pchar(b) || matches!(b, b'/' | b'?' | b'%')
}

/// `fast`'s answer to the request `head` with header `fields`, parsed from `bytes`; `None`
/// when it passes the request on or hyper would refuse its target or a header.
fn answer(
    bytes: &Bytes,
    head: &Head,
    fields: &[(Span, Span)],
    fast: &dyn FastPath,
) -> Option<Response<Bytes>> {
    let target = bytes.slice(head.target.start..head.target.end);
    let uri = Uri::from_maybe_shared(target).ok()?;
    let mut headers = HeaderMap::with_capacity(fields.len());
    for (name, value) in fields {
        let name = HeaderName::from_bytes(&bytes[name.start..name.end]).ok()?;
        let value = HeaderValue::from_maybe_shared(bytes.slice(value.start..value.end)).ok()?;
        headers.append(name, value);
    }
    fast.answer(&head.method, &uri, &headers)
}

/// Writes `answer` as hyper writes a response to an HTTP/1.1 request: the status line, the
/// answer's headers in their order, `connection: close` when the request asked for it, the
/// length, and `date`; then the body, but for `HEAD` (and statuses that have none).
///
/// The length goes where hyper puts it: in its place among the headers, but for an empty
/// body to a `GET`, whose `content-length: 0` comes after them all (as it does when the
/// answer does not give its length).
fn write_answer(answer: &Response<Bytes>, head_only: bool, close: bool, out: &mut Vec<u8>) {
    let headers = answer
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_bytes()));
    write_parts(
        answer.status(),
        headers,
        answer.body(),
        head_only,
        close,
        out,
    );
}

/// [`write_answer`] of an answer in parts: `headers` are names in lower case and values.
fn write_parts<'h>(
    status: StatusCode,
    headers: impl Iterator<Item = (&'h str, &'h [u8])>,
    body: &[u8],
    head_only: bool,
    close: bool,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"HTTP/1.1 ");
    out.extend_from_slice(status.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(status.canonical_reason().unwrap_or("<none>").as_bytes());
    out.extend_from_slice(b"\r\n");
    let no_body = status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    let length_in_place = !body.is_empty() || head_only;
    let (mut said_length, mut said_date) = (false, false);
    for (name, value) in headers {
        if name == header::CONTENT_LENGTH.as_str() {
            if !length_in_place {
                continue;
            }
            said_length = true;
        }
        said_date |= name == header::DATE.as_str();
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    if close {
        out.extend_from_slice(b"connection: close\r\n");
    }
    // A `HEAD` answer's length is the one it says, or none.
    let head_without_length = head_only && body.is_empty();
    if !(said_length || no_body || head_without_length) {
        out.extend_from_slice(b"content-length: ");
        out.extend_from_slice(body.len().to_string().as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !said_date {
        out.extend_from_slice(b"date: ");
        http_date(out);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    if !head_only && !no_body {
        out.extend_from_slice(body);
    }
}

/// The time now as an HTTP date (RFC 9110 §5.6.7), formatted once a second per thread.
fn http_date(out: &mut Vec<u8>) {
    use std::cell::RefCell;
    use std::time::{SystemTime, UNIX_EPOCH};
    thread_local! {
        static FORMATTED: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
    }
    let now = SystemTime::now();
    let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    FORMATTED.with_borrow_mut(|(at, text)| {
        if *at != second {
            *at = second;
            *text = httpdate::fmt_http_date(now);
        }
        out.extend_from_slice(text.as_bytes());
    });
}

/// A connection with bytes already read from it put back in front of what it reads next.
pub(super) struct Prefixed<I> {
    before: Bytes,
    io: I,
}

impl<I: AsyncRead + Unpin> AsyncRead for Prefixed<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.before.is_empty() {
            let n = this.before.len().min(buf.remaining());
            buf.put_slice(&this.before[..n]);
            this.before.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.io).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Prefixed<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_this_path_takes_are_get_and_head_of_http_1_1_without_a_body() {
        let mut spans = Vec::new();
        let get = b"GET /a?b HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\nGET /next";
        let head = parse_head(get, &mut spans).unwrap().unwrap();
        assert_eq!(head.method, Method::GET);
        assert_eq!(&get[head.target.start..head.target.end], b"/a?b");
        assert_eq!(head.length, get.len() - b"GET /next".len());
        assert_eq!(spans.len(), 2);
        assert!(!head.close);
        let close = b"HEAD / HTTP/1.1\r\nConnection: Close\r\n\r\n";
        assert!(parse_head(close, &mut spans).unwrap().unwrap().close);
        for not_taken in [
            &b"POST / HTTP/1.1\r\n\r\n"[..],
            b"GET / HTTP/1.0\r\n\r\n",
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\n\r\nx",
            b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n",
            b"GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            b"GET / HTTP/1.1\r\nConnection: keep-alive, upgrade\r\n\r\n",
            b"GET /\x01 HTTP/1.1\r\n\r\n",
        ] {
            assert!(
                parse_head(not_taken, &mut spans).is_err(),
                "{}",
                String::from_utf8_lossy(not_taken)
            );
        }
        assert!(matches!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n", &mut spans),
            Ok(None)
        ));
        let many: String = (0..MOST_HEADERS + 1)
            .map(|i| format!("x-{i}: y\r\n"))
            .collect();
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert!(parse_head(many.as_bytes(), &mut spans).is_err());
    }

    #[test]
    fn answers_are_written_as_hyper_writes_them() {
        let mut answer = Response::new(Bytes::from_static(b"gone\n"));
        *answer.status_mut() = StatusCode::GONE;
        answer
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        let mut out = Vec::new();
        write_answer(&answer, false, true, &mut out);
        let text = String::from_utf8(out).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let lines: Vec<&str> = head.split("\r\n").collect();
        assert_eq!(
            lines[..4],
            [
                "HTTP/1.1 410 Gone",
                "content-type: text/plain",
                "connection: close",
                "content-length: 5"
            ]
        );
        let date = lines[4].strip_prefix("date: ").unwrap();
        assert!(httpdate::parse_http_date(date).is_ok(), "{date}");
        assert_eq!(lines.len(), 5);
        assert_eq!(body, "gone\n");
        let mut head_only = Vec::new();
        write_answer(&answer, true, false, &mut head_only);
        let head_only = String::from_utf8(head_only).unwrap();
        assert!(head_only.ends_with("\r\n\r\n"), "{head_only}");
        assert!(head_only.contains("content-length: 5\r\n"));
        assert!(!head_only.contains("connection"));
    }

    #[test]
    fn an_empty_answer_to_a_get_says_its_length_last_as_hyper_does() {
        let mut answer = Response::new(Bytes::new());
        *answer.status_mut() = StatusCode::FOUND;
        let h = answer.headers_mut();
        h.insert(header::LOCATION, HeaderValue::from_static("https://e.org/"));
        h.insert(header::CONTENT_LENGTH, HeaderValue::from(0));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        let names = |head_only: bool| {
            let mut out = Vec::new();
            write_answer(&answer, head_only, true, &mut out);
            let text = String::from_utf8(out).unwrap();
            text.split("\r\n")
                .skip(1)
                .filter_map(|line| line.split_once(':').map(|(name, _)| name.to_owned()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(false),
            [
                "location",
                "cache-control",
                "connection",
                "content-length",
                "date"
            ]
        );
        assert_eq!(
            names(true),
            [
                "location",
                "content-length",
                "cache-control",
                "connection",
                "date"
            ]
        );
    }

    /// Every target a plain answer takes is one `Uri` takes, split into the same path and
    /// query: each byte it takes, in every place of a few shapes.
    #[test]
    fn plain_targets_are_split_as_uri_splits_them() {
        let plain: Vec<u8> = (0..=u8::MAX).filter(|&b| is_plain_target_byte(b)).collect();
        assert_eq!(
            plain.len(),
            66 + 15 + 1,
            "RFC 3986 characters but #, [ and ]; and %"
        );
        for &b in &plain {
            let c = b as char;
            for target in [
                format!("/{c}"),
                format!("//{c}{c}"),
                format!("/a{c}b?{c}"),
                format!("/?{c}?{c}/"),
                format!("/{c}%?%{c}"),
            ] {
                let uri = Uri::from_maybe_shared(Bytes::from(target.clone()))
                    .unwrap_or_else(|e| panic!("{target:?}: {e}"));
                let (path, query) = match target.split_once('?') {
                    Some((path, query)) => (path, Some(query)),
                    None => (target.as_str(), None),
                };
                assert_eq!((uri.path(), uri.query()), (path, query), "{target:?}");
            }
        }
    }

    #[tokio::test]
    async fn bytes_put_back_are_read_before_the_connection() {
        let (mut client, server) = tokio::io::duplex(64);
        client.write_all(b" and after").await.unwrap();
        drop(client);
        let mut prefixed = Prefixed {
            before: Bytes::from_static(b"before"),
            io: server,
        };
        let mut all = String::new();
        prefixed.read_to_string(&mut all).await.unwrap();
        assert_eq!(all, "before and after");
    }
}
