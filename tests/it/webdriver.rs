//! A small blocking WebDriver client for `browser.rs`: the dozen W3C WebDriver
//! commands that test uses (new session, go to, refresh, find elements by CSS, text,
//! click, send keys, execute a script, window size, screenshot, end session), as JSON
//! over one HTTP/1.1 request a connection on a `TcpStream` (the reply read by its length).
//!
//! It replaces a WebDriver crate whose dependency tree (an async HTTP client, URL and
//! Unicode segmentation tables, about 60 crates) was the largest part of a fresh
//! clone's dev-dependency build; the commands and their JSON are those of the W3C
//! WebDriver specification (chromedriver speaks it).

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The key WebDriver maps to Enter (a code point of the Unicode private use area).
pub const ENTER: &str = "\u{E007}";

/// The JSON key of an element reference (fixed by the W3C specification).
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One WebDriver session on a driver listening at `127.0.0.1:port`.
pub struct Client {
    addr: String,
    session: String,
}

/// An element of the page, found by [`Client::find`] or [`Client::find_all`].
pub struct Element<'a> {
    client: &'a Client,
    id: String,
}

/// One HTTP request; the `value` of the JSON reply, or the error the driver named.
fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json; \
         charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .map_err(|e| format!("{method} {path}: {e}"))?;
    // The reply's header, then its body by `Content-Length` (or chunked): a driver may
    // keep the connection open whatever the request said, so never read to the end.
    let mut reply = Vec::new();
    let mut buf = [0u8; 65536];
    let read = |stream: &mut TcpStream, reply: &mut Vec<u8>, buf: &mut [u8]| {
        let n = stream
            .read(buf)
            .map_err(|e| format!("{method} {path}: {e}"))?;
        reply.extend_from_slice(&buf[..n]);
        Ok::<usize, String>(n)
    };
    let split = loop {
        if let Some(i) = reply.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if read(&mut stream, &mut reply, &mut buf)? == 0 {
            return Err(format!(
                "{method} {path}: the connection closed in the header"
            ));
        }
    };
    let header = String::from_utf8_lossy(&reply[..split]).to_ascii_lowercase();
    let length = header.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .and_then(|v| v.trim().parse::<usize>().ok())
    });
    let chunked = header.contains("transfer-encoding: chunked");
    loop {
        let body = &reply[split + 4..];
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n") && unchunk(body).is_ok(),
            None => false,
        };
        if done || read(&mut stream, &mut reply, &mut buf)? == 0 {
            break;
        }
    }
    let mut content = reply[split + 4..].to_vec();
    if let Some(n) = length {
        content.truncate(n);
    } else if chunked {
        content = unchunk(&content)?;
    }
    let status: u16 = header
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no HTTP status"))?;
    let json: Value = serde_json::from_slice(&content)
        .map_err(|e| format!("{method} {path}: reply is not JSON ({e})"))?;
    let value = json.get("value").cloned().unwrap_or(Value::Null);
    if status >= 400 {
        return Err(format!("{method} {path}: HTTP {status}: {value}"));
    }
    Ok(value)
}

/// Decodes an HTTP/1.1 chunked body.
fn unchunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk without a size line")?;
        let size = String::from_utf8_lossy(&data[..eol]);
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16)
            .map_err(|e| format!("chunk size {size:?}: {e}"))?;
        data = &data[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = data.get(..size).ok_or("a chunk shorter than its size")?;
        out.extend_from_slice(chunk);
        data = data.get(size + 2..).unwrap_or_default();
    }
}

/// Decodes standard base64 (the screenshot's PNG).
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not a base64 digit: {c:?}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(digit)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..group.len()]);
    }
    out
}

impl Client {
    /// Starts a session with these capabilities (`alwaysMatch`).
    pub fn connect(port: u16, capabilities: &Value) -> Result<Client, String> {
        let addr = format!("127.0.0.1:{port}");
        let body = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let value = request(&addr, "POST", "/session", Some(&body))?;
        let session = value["sessionId"]
            .as_str()
            .ok_or_else(|| format!("new session: no sessionId in {value}"))?
            .to_string();
        Ok(Client { addr, session })
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{path}", self.session);
        request(&self.addr, method, &path, body.as_ref())
    }

    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.call("POST", "/url", Some(json!({ "url": url })))
            .map(drop)
    }

    pub fn refresh(&self) -> Result<(), String> {
        self.call("POST", "/refresh", Some(json!({}))).map(drop)
    }

    fn element(&self, reference: &Value) -> Result<Element<'_>, String> {
        let id = reference[ELEMENT]
            .as_str()
            .ok_or_else(|| format!("not an element reference: {reference}"))?;
        Ok(Element {
            client: self,
            id: id.to_string(),
        })
    }

    /// The first element `css` matches (an error when none does).
    pub fn find(&self, css: &str) -> Result<Element<'_>, String> {
        let body = json!({ "using": "css selector", "value": css });
        let value = self.call("POST", "/element", Some(body))?;
        self.element(&value)
    }

    /// Every element `css` matches, in document order.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element<'_>>, String> {
        let body = json!({ "using": "css selector", "value": css });
        let value = self.call("POST", "/elements", Some(body))?;
        value
            .as_array()
            .ok_or_else(|| format!("find all {css}: not a list: {value}"))?
            .iter()
            .map(|r| self.element(r))
            .collect()
    }

    /// Runs `script` as a function body with `args` as `arguments`; its return value.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, String> {
        let body = json!({ "script": script, "args": args });
        self.call("POST", "/execute/sync", Some(body))
    }

    pub fn set_window_size(&self, width: u32, height: u32) -> Result<(), String> {
        let body = json!({ "width": width, "height": height });
        self.call("POST", "/window/rect", Some(body)).map(drop)
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let value = self.call("GET", "/screenshot", None)?;
        let text = value
            .as_str()
            .ok_or_else(|| format!("screenshot: not a string: {value}"))?;
        Ok(base64(text))
    }

    /// Ends the session (the browser closes).
    pub fn close(self) -> Result<(), String> {
        self.call("DELETE", "", None).map(drop)
    }
}

impl Element<'_> {
    fn path(&self, what: &str) -> String {
        format!("/element/{}/{what}", self.id)
    }

    /// The rendered text (as `innerText`: CSS capitals applied, lines by newlines).
    pub fn text(&self) -> Result<String, String> {
        let value = self.client.call("GET", &self.path("text"), None)?;
        value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("text: not a string: {value}"))
    }

    pub fn click(&self) -> Result<(), String> {
        let path = self.path("click");
        self.client.call("POST", &path, Some(json!({}))).map(drop)
    }

    /// Types `text` into the element ([`ENTER`] presses Enter).
    pub fn send_keys(&self, text: &str) -> Result<(), String> {
        let path = self.path("value");
        let body = json!({ "text": text });
        self.client.call("POST", &path, Some(body)).map(drop)
    }
}

#[test]
fn base64_and_chunked_replies_decode() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGVsbG8h"), b"hello!");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64(""), b"");
    assert_eq!(
        unchunk(b"5\r\nhello\r\n1;x\r\n!\r\n0\r\n\r\n").unwrap(),
        b"hello!"
    );
    assert!(unchunk(b"9\r\nhello\r\n0\r\n\r\n").is_err());
}
