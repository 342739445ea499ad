//! JSON bodies for the answers hyper writes itself. A request head hyper cannot parse
//! (a raw non-ASCII byte in the URI, a broken header line: 400), one over its buffer
//! or with too many headers (431), or a URI over 64 KiB (414) never reaches a
//! handler: hyper answers it with an empty body and closes the connection, and hyper
//! 1.12 has no hook to change that answer. [`JsonErrors`] wraps a connection's stream
//! and replaces that one answer, as hyper writes it, by the same status with a JSON
//! `{"error": ...}` body.
//!
//! Invariants: an answer is replaced only when one write (or one slice of a vectored
//! write) is exactly such a head: `HTTP/1.1 4xx`, `connection: close` and
//! `content-length: 0`, ending the head. No handler's answer looks like that (every
//! one has a JSON or HTML body, so a length above 0), so nothing else is ever touched;
//! a head that hyper split over two writes is left as it is (the empty body goes out,
//! never a corrupted answer). The replacement is written before anything else: hyper
//! is told its bytes were written, and the JSON answer drains on the next write,
//! flush or shutdown.

use hyper::rt::{Read, ReadBufCursor, Write};
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// A connection's stream whose hyper-made error answers get JSON bodies (module doc).
pub struct JsonErrors<T> {
    inner: T,
    /// The JSON answer still to write, and how much of it is written.
    pending: Vec<u8>,
    at: usize,
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T) -> JsonErrors<T> {
        JsonErrors {
            inner,
            pending: Vec::new(),
            at: 0,
        }
    }
}

/// The JSON answer for `head` when it is one of hyper's own error answers.
fn json_answer(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status_line = text.strip_prefix("HTTP/1.1 4")?.split("\r\n").next()?;
    let lines: Vec<&str> = text.strip_suffix("\r\n\r\n")?.split("\r\n").collect();
    if !lines.contains(&"connection: close") || !lines.contains(&"content-length: 0") {
        return None;
    }
    let code = format!("4{}", status_line.get(..2)?);
    let why = match code.as_str() {
        "400" => "bad request: the request line or a header could not be parsed (the URI must be ASCII; percent-encode other bytes)",
        "414" => "URI too long",
        "431" => "request head too large: too many or too long header lines",
        _ => "bad request",
    };
    let body = serde_json::json!({ "error": why }).to_string();
    Some(
        format!(
            "HTTP/1.1 4{status_line}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: Write + Unpin> JsonErrors<T> {
    /// Writes what is left of a replacement answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.at < self.pending.len() {
            match ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.at..])) {
                Ok(0) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Ok(n) => self.at += n,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
        self.pending.clear();
        self.at = 0;
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` (one of hyper's error answers) as written: its replacement is
    /// written now as far as the stream takes it, the rest later.
    fn replace(&mut self, cx: &mut Context<'_>, buf: &[u8], answer: Vec<u8>) -> usize {
        self.pending = answer;
        self.at = 0;
        // Pending or an error shows again on the next write, flush or shutdown.
        let _ = self.drain(cx);
        buf.len()
    }
}

impl<T: Write + Unpin> Write for JsonErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        match json_answer(buf) {
            Some(answer) => Poll::Ready(Ok(this.replace(cx, buf, answer))),
            None => Pin::new(&mut this.inner).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        match bufs.iter().position(|b| json_answer(b).is_some()) {
            Some(0) => {
                let answer = json_answer(&bufs[0]).expect("just matched");
                Poll::Ready(Ok(this.replace(cx, &bufs[0], answer)))
            }
            // The slices before it first, as they are.
            Some(i) => Pin::new(&mut this.inner).poll_write_vectored(cx, &bufs[..i]),
            None => Pin::new(&mut this.inner).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

impl<T: Read + Unpin> Read for JsonErrors<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::json_answer;

    #[test]
    fn only_hypers_own_error_answers_are_replaced() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 16:00:26 GMT\r\n\r\n";
        let a = String::from_utf8(json_answer(head).unwrap()).unwrap();
        assert!(
            a.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{a}"
        );
        let (h, body) = a.split_once("\r\n\r\n").unwrap();
        assert!(
            h.contains(&format!("content-length: {}", body.len())),
            "{a}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("too large"));
        // A handler's answer (a body), a 200, a split head: untouched.
        for other in [
            &b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 12\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n",
            b"xHTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
        ] {
            assert!(json_answer(other).is_none());
        }
    }
}
