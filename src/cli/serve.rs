//! The `serve` command: the local web page and JSON API of [`wordle_tree::players::serve`], on
//! a small tokio runtime. Ctrl-C or SIGTERM stop it (running searches are interrupted
//! through the shared stop flag, then the server drains and exits with 130).

use super::next::parse_seconds;
use super::Ctx;
use anyhow::{Context, Result};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use wordle_tree::players::serve::{self, App, Config};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Deadline of each request's search, in seconds: values not proved by then are
    /// answered as proved ranges.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "2")]
    time_limit: Duration,
    /// Searches run at once (default: the number of cores).
    #[arg(long)]
    max_searches: Option<usize>,
}

pub fn run(ctx: &Ctx, args: &ServeArgs) -> Result<ExitCode> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let config = Config {
        lists: vec!["wordle".into(), "nyt".into()],
        tree_dirs: super::shipped_dirs(ctx, "trees"),
        table_dirs: super::shipped_dirs(ctx, "tables"),
        time_limit: args.time_limit,
        max_searches: args.max_searches.unwrap_or(cores).max(1),
    };
    let app = Arc::new(App::new(config, ctx.stop)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.min(4))
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let stop = ctx.stop;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
        let addr = listener.local_addr()?;
        let served: Vec<String> = app
            .served()
            .iter()
            .map(|(l, h)| format!("{l}/{}", if *h { "hard" } else { "normal" }))
            .collect();
        outln!("serving {} on http://{addr}/", served.join(", "));
        std::io::stdout().flush()?;
        let shutdown = async move {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        serve::run(app, listener, shutdown).await?;
        anyhow::Ok(())
    })?;
    if stop.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
