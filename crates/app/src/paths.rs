//! Where the program finds its data (scenarios, army lists, rule help) and keeps its saves.
//!
//! A copy run from the source tree (`cargo run`) or unpacked beside its data reads the folders it
//! finds there, so edits to a scenario show at once. An installed copy (`cargo install`) has no
//! such folder: it carries the shipped data built in ([`embedded`]) and unpacks it once into the
//! platform's data folder, where the loaders read it like any other folder.

use std::path::{Path, PathBuf};

/// The folders the program reads from.
#[derive(Debug, Clone, bevy::prelude::Resource)]
pub struct DataPaths {
    pub scenarios: PathBuf,
    /// The player's own scenarios (the platform data folder's `scenarios/`), listed apart.
    pub own: Option<PathBuf>,
    /// Army lists and rule help, where each ruleset finds its own files.
    pub dirs: sandtable_engine::DataDirs,
}

impl DataPaths {
    /// `root` if given; otherwise the first folder holding `scenarios/` and `assets/armies/`
    /// among the current folder and the program's folder and its ancestors; otherwise the
    /// built-in data, unpacked into the platform's data folder.
    pub fn locate(root: Option<&Path>) -> Self {
        let root = root
            .map(Path::to_path_buf)
            .or_else(|| find_root(&search_candidates()))
            .unwrap_or_else(|| match embedded::unpacked(&data_home()) {
                Ok(dir) => dir,
                Err(e) => {
                    bevy::log::error!("cannot unpack the built-in data: {e}");
                    PathBuf::from(".")
                }
            });
        Self {
            own: Some(own_scenarios_dir()),
            ..Self::under(&root)
        }
    }

    /// The folders under one data root (and no folder of the player's own).
    pub fn under(root: &Path) -> Self {
        Self {
            scenarios: root.join("scenarios"),
            own: None,
            dirs: sandtable_engine::DataDirs::under(&root.join("assets")),
        }
    }
}

/// Folders that may hold the data: the current folder, then the program's folder and its
/// ancestors (`target/release/sandtable` finds the repository it was built in).
fn search_candidates() -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        candidates.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
    }
    candidates
}

/// The first candidate that holds a data root.
fn find_root(candidates: &[PathBuf]) -> Option<PathBuf> {
    candidates.iter().find(|c| is_data_root(c)).cloned()
}

fn is_data_root(dir: &Path) -> bool {
    dir.join("scenarios").is_dir() && dir.join("assets/armies").is_dir()
}

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("org", "Sandtable", "sandtable")
}

/// The platform's data folder (e.g. `~/.local/share/sandtable` on Linux).
fn data_home() -> PathBuf {
    project_dirs()
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| std::env::temp_dir().join("sandtable"))
}

/// Where remote battles keep their files (`docs/remote.md`): one folder per battle, under
/// `$SANDTABLE_REMOTE_DIR` when it is set.
pub fn remote_dir() -> PathBuf {
    std::env::var_os("SANDTABLE_REMOTE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| data_home().join("remote"))
}

/// Where the player keeps scenarios of their own (e.g. `~/.local/share/sandtable/scenarios`):
/// the start screen lists them in a group of their own.
pub fn own_scenarios_dir() -> PathBuf {
    data_home().join("scenarios")
}

/// Where the player keeps forces built in the app (e.g. `~/.local/share/sandtable/forces`), or
/// `$SANDTABLE_FORCES_DIR` when it is set.
pub fn own_forces_dir() -> PathBuf {
    std::env::var_os("SANDTABLE_FORCES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| data_home().join("forces"))
}

/// A file name from a title: letters and digits in lower case, the rest as dashes, never empty
/// (`fallback` when nothing is left).
pub fn slug(title: &str, fallback: &str) -> String {
    let s: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    match s.trim_matches('-') {
        "" => fallback.to_string(),
        s => s.to_string(),
    }
}

/// The platform's data folder for saves (e.g. `~/.local/share/sandtable/saves` on Linux).
pub fn saves_dir() -> PathBuf {
    project_dirs()
        .map(|d| d.data_dir().join("saves"))
        .unwrap_or_else(|| PathBuf::from("saves"))
}

/// The shipped data built into the program, and unpacking it.
pub mod embedded {
    use include_dir::{Dir, include_dir};
    use std::path::{Path, PathBuf};

    static SCENARIOS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../scenarios");
    static ARMIES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets/armies");
    static HELP: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets/help");
    static FORCES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../assets/forces");

    /// Where each built-in folder goes under a data root.
    fn folders() -> [(&'static Dir<'static>, &'static str); 4] {
        [
            (&SCENARIOS, "scenarios"),
            (&ARMIES, "assets/armies"),
            (&HELP, "assets/help"),
            (&FORCES, "assets/forces"),
        ]
    }

    /// Every built-in file as (path under the data root, contents), in a fixed order.
    pub fn files() -> Vec<(PathBuf, &'static [u8])> {
        fn walk(dir: &'static Dir<'static>, out: &mut Vec<&'static include_dir::File<'static>>) {
            out.extend(dir.files());
            for d in dir.dirs() {
                walk(d, out);
            }
        }
        let mut all = Vec::new();
        for (dir, to) in folders() {
            let mut found = Vec::new();
            walk(dir, &mut found);
            all.extend(
                found
                    .into_iter()
                    .map(|f| (Path::new(to).join(f.path()), f.contents())),
            );
        }
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    /// A name for this build's data (FNV-1a over every path and content): a program whose
    /// shipped data changed unpacks it afresh instead of reading an older copy.
    pub fn fingerprint() -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (path, bytes) in files() {
            for b in path
                .to_string_lossy()
                .bytes()
                .chain([0])
                .chain(bytes.iter().copied())
            {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("data-{h:016x}")
    }

    /// The built-in data unpacked under `home` (`home/data-<fingerprint>`), unpacking it first if
    /// it is not there. The folder is written under a temporary name and renamed into place, so
    /// a copy interrupted half-way is never read; an existing copy is never rewritten.
    pub fn unpacked(home: &Path) -> std::io::Result<PathBuf> {
        let dir = home.join(fingerprint());
        if dir.is_dir() {
            return Ok(dir);
        }
        std::fs::create_dir_all(home)?;
        let tmp = home.join(format!(".unpacking-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        for (path, bytes) in files() {
            let to = tmp.join(&path);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&to, bytes)?;
        }
        match std::fs::rename(&tmp, &dir) {
            Ok(()) => Ok(dir),
            // Another copy of the program unpacked it first: use theirs.
            Err(_) if dir.is_dir() => {
                let _ = std::fs::remove_dir_all(&tmp);
                Ok(dir)
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> tempfile::TempDir {
        crate::scratch_folder(&format!("paths-{name}"))
    }

    #[test]
    fn the_built_in_data_holds_every_shipped_scenario_army_list_and_help_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let built_in: Vec<PathBuf> = embedded::files().into_iter().map(|f| f.0).collect();
        for folder in ["scenarios", "assets/armies", "assets/help"] {
            let mut on_disk = Vec::new();
            let mut stack = vec![root.join(folder)];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        on_disk.push(p.strip_prefix(&root).unwrap().to_path_buf());
                    }
                }
            }
            assert!(!on_disk.is_empty(), "{folder} is empty");
            for p in on_disk {
                assert!(built_in.contains(&p), "{} is not built in", p.display());
            }
        }
    }

    #[test]
    fn without_a_data_folder_nearby_the_built_in_data_is_unpacked_once_and_found() {
        let (home_dir, elsewhere_dir) = (scratch("home"), scratch("elsewhere"));
        let (home, elsewhere) = (
            home_dir.path().to_path_buf(),
            elsewhere_dir.path().to_path_buf(),
        );
        assert_eq!(find_root(std::slice::from_ref(&elsewhere)), None);
        let dir = embedded::unpacked(&home).unwrap();
        assert!(is_data_root(&dir), "{} is not a data root", dir.display());
        let paths = DataPaths::under(&dir);
        assert!(paths.scenarios.join("01-mill-ford-skirmish.ron").is_file());
        // A second start reads the same copy and leaves no temporary folder behind.
        let stamp = std::fs::metadata(&dir).unwrap().modified().unwrap();
        assert_eq!(embedded::unpacked(&home).unwrap(), dir);
        assert_eq!(std::fs::metadata(&dir).unwrap().modified().unwrap(), stamp);
        let names: Vec<_> = std::fs::read_dir(&home)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn a_folder_with_scenarios_and_army_lists_is_a_data_root() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let none = scratch("none");
        assert_eq!(
            find_root(&[none.path().to_path_buf(), root.clone()]),
            Some(root.clone())
        );
    }
}
