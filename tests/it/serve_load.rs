//! A bounded local load test of `serve` (not in the default suite): 10,000 `next`
//! requests on the tree over 32 connections to 127.0.0.1, with p50/p99 latency and the
//! error count (which must be zero), and the server's own time (`Server-Timing`).
//! Against a running server: `WORDLE_TREE_URL=http://127.0.0.1:PORT/`; otherwise the
//! test starts `wordle-tree serve --port 0` itself (the test profile's binary; measure
//! a release one). `cargo test --release --test it serve_load:: -- --ignored --nocapture`

use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `wordle-tree serve --port 0` (the test profile's binary) and its `http://ADDR/`.
fn spawn_server() -> (std::process::Child, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wordle-tree"))
        .args(["serve", "--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(c.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    (c, url)
}

#[test]
#[ignore]
fn ten_thousand_requests_over_32_connections() {
    let mut child = None;
    let url = match std::env::var("WORDLE_TREE_URL") {
        Ok(u) => u,
        Err(_) => {
            let (c, url) = spawn_server();
            child = Some(c);
            url
        }
    };
    let histories = [
        "",
        "salet:BBBBB",
        "salet:BBBBB+courd:BBBBY",
        "salet:BYBBY+tonic:YYBBB",
        "salet:BYBBY",
        "salet:GGBBB",
    ];
    let uris: Arc<Vec<axum::http::Uri>> = Arc::new(
        histories
            .iter()
            .map(|h| format!("{url}api/next?history={h}").parse().unwrap())
            .collect(),
    );
    const REQUESTS: usize = 10_000;
    const CONNECTIONS: usize = 32;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (mut latencies, mut server, errors, wall) = rt.block_on(async {
        let client: Client<_, http_body_util::Empty<axum::body::Bytes>> =
            Client::builder(TokioExecutor::new())
                .pool_max_idle_per_host(CONNECTIONS)
                .build_http();
        let start = Instant::now();
        let tasks: Vec<_> = (0..CONNECTIONS)
            .map(|t| {
                let client = client.clone();
                let uris = Arc::clone(&uris);
                tokio::spawn(async move {
                    let mut lat = Vec::new();
                    let mut server = Vec::new();
                    let mut errors = 0usize;
                    for i in (t..REQUESTS).step_by(CONNECTIONS) {
                        let uri = uris[i % uris.len()].clone();
                        let t0 = Instant::now();
                        match client.get(uri).await {
                            Ok(res) => {
                                let ok = res.status().is_success();
                                if let Some(v) = res.headers().get("server-timing") {
                                    let ms: f64 =
                                        v.to_str().unwrap()["app;dur=".len()..].parse().unwrap();
                                    server.push(ms);
                                }
                                let body = res.into_body().collect().await;
                                if !ok || body.is_err() {
                                    errors += 1;
                                }
                            }
                            Err(_) => errors += 1,
                        }
                        lat.push(t0.elapsed());
                    }
                    (lat, server, errors)
                })
            })
            .collect();
        let mut all = Vec::new();
        let mut server = Vec::new();
        let mut errors = 0;
        for t in tasks {
            let (l, s, e) = t.await.unwrap();
            all.extend(l);
            server.extend(s);
            errors += e;
        }
        (all, server, errors, start.elapsed())
    });
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
    }
    latencies.sort();
    server.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize];
    let s = |p: f64| server[((server.len() - 1) as f64 * p).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{} requests over {CONNECTIONS} connections in {:.2} s ({:.0} requests/s): latency p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; server time p50 {:.3} ms, p99 {:.3} ms; errors {errors}",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64(),
        ms(q(0.5)),
        ms(q(0.99)),
        ms(q(1.0)),
        s(0.5),
        s(0.99),
    );
    assert_eq!(errors, 0);
    assert_eq!(latencies.len(), REQUESTS);
}

/// Issue 38, run by hand: slow clients on loopback against `wordle-tree serve` (the
/// default limits: 10 s to send a request head, 256 connections). 300 clients each
/// send half a request and stall; meanwhile 100 normal requests are sent one after
/// the other, each on a new connection. Prints their latency (p50/p99/max), how many
/// failed (must be none), and how long the server took to close the stalled clients.
/// `[SLOW_CLIENTS=300] cargo test --release --test it serve_load::slow -- --ignored --nocapture`
#[test]
#[ignore]
fn slow_clients_do_not_starve_normal_requests() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let (mut c, url) = spawn_server();
    let addr = url["http://".len()..].trim_end_matches('/').to_string();
    // `SLOW_CLIENTS=200` stays under the connection cap.
    let slow_n: usize = std::env::var("SLOW_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    const NORMAL: usize = 100;
    let start = Instant::now();
    let slow: Vec<TcpStream> = (0..slow_n)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /api/lists HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            s
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for i in 0..NORMAL {
        let t0 = Instant::now();
        let ok = (|| -> std::io::Result<bool> {
            let mut s = TcpStream::connect(&addr)?;
            s.set_read_timeout(Some(Duration::from_secs(30)))?;
            let path = if i % 2 == 0 {
                "/api/next?history=salet:BBBBB"
            } else {
                "/api/lists"
            };
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )?;
            let mut out = String::new();
            s.read_to_string(&mut out)?;
            Ok(out.starts_with("HTTP/1.1 200"))
        })();
        if !matches!(ok, Ok(true)) {
            errors += 1;
        }
        latencies.push(t0.elapsed());
    }
    // How long the stalled clients were kept.
    let mut closed_after = Vec::new();
    for mut s in slow {
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut buf = Vec::new();
        let r = s.read_to_end(&mut buf);
        assert!(
            !matches!(&r, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
            "a stalled client was still open after 30 s"
        );
        closed_after.push(start.elapsed());
    }
    let _ = c.kill();
    let _ = c.wait();
    latencies.sort();
    let q = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{slow_n} stalled clients, {NORMAL} normal requests: latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; errors {errors}; stalled clients closed after {:.1} s (the last)",
        ms(q(0.5)),
        ms(q(0.99)),
        ms(q(1.0)),
        closed_after.iter().max().unwrap().as_secs_f64()
    );
    assert_eq!(errors, 0);
}
