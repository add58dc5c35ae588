//! `validate`: the same loaders the app uses, one report line per problem.

use sandtable_engine::{DataDirs, Registry};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(registry: &Registry, files: &[PathBuf], dirs: &DataDirs) -> ExitCode {
    let mut bad = 0;
    for f in files {
        let problems = registry.check_file(f, dirs);
        if problems.is_empty() {
            eprintln!("{}: ok", f.display());
        } else {
            bad += 1;
            for p in problems {
                println!("{p}");
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
