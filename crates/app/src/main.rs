//! The `sandtable` binary: parse the command line and run the app.

use clap::Parser;

fn main() -> bevy::app::AppExit {
    let launched = std::time::Instant::now();
    let args = sandtable_app::args::Args::parse();
    let mut app = sandtable_app::build_app(args);
    app.insert_resource(sandtable_app::Launched(launched));
    app.run()
}
