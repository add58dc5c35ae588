//! The `sandtable` binary: parse the command line and run the app.

use clap::Parser;

fn main() -> bevy::app::AppExit {
    let args = sandtable_app::args::Args::parse();
    sandtable_app::build_app(args).run()
}
