//! The player's settings, kept between runs in `settings.ron` in the platform's config folder
//! (`~/.config/sandtable` on Linux; `--config DIR` for another): the size of the interface, the
//! tape's unit, the computer's pace and whether a planned command asks before it is committed.
//!
//! A settings file that cannot be read never stops the program: it plays with the defaults, says
//! what is wrong (file, line and column, or the setting at fault) in the settings window, and
//! keeps the bad file as `settings.ron.bad` before the first change is saved over it. Saves are
//! atomic (a temporary file renamed into place).

use bevy::prelude::*;
use sandtable_engine::{LengthUnit, data_file};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The interface scale's bounds (egui's zoom factor).
pub const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.0;
/// The computer's pace's bounds: seconds between two of its commands.
pub const PACE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=3.0;

/// What the tape measures in when a battle opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TapeUnit {
    /// The ruleset's own unit (By Fire and Sword: centimetres; the Napoleonic sheet: inches).
    #[default]
    Ruleset,
    Centimetres,
    Inches,
}

impl TapeUnit {
    /// The unit to start a battle with, given the ruleset's own.
    pub fn resolve(self, ruleset: LengthUnit) -> LengthUnit {
        match self {
            TapeUnit::Ruleset => ruleset,
            TapeUnit::Centimetres => LengthUnit::Centimetres,
            TapeUnit::Inches => LengthUnit::Inches,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TapeUnit::Ruleset => "the ruleset's own",
            TapeUnit::Centimetres => "centimetres",
            TapeUnit::Inches => "inches",
        }
    }
}

/// The settings themselves. Every field has a default, so a file may name only some of them.
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename = "Settings")]
pub struct Settings {
    /// Size of the whole interface (1.0: as designed).
    pub ui_scale: f32,
    /// What the tape measures in when a battle opens (it can still be switched in play, U).
    pub tape_unit: TapeUnit,
    /// Seconds between two of the computer's commands, so a player can follow them.
    pub computer_pace_s: f32,
    /// A planned move or charge asks "Commit?" before it is carried out.
    pub confirm_commit: bool,
    /// The two sides' colours.
    pub side_palette: crate::palette::SidePalette,
    /// The coach: before a command for one of the person's pieces is carried out (a move, a
    /// charge, an order, a reaction), the computer points out a clear blunder in one sentence
    /// (never in a lesson; the person always decides).
    pub coach: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            tape_unit: TapeUnit::Ruleset,
            computer_pace_s: 0.35,
            confirm_commit: false,
            side_palette: crate::palette::SidePalette::default(),
            coach: true,
        }
    }
}

impl Settings {
    /// The first setting out of its bounds, as a message naming it.
    pub fn check(&self) -> Result<(), String> {
        if !UI_SCALE_RANGE.contains(&self.ui_scale) {
            return Err(format!(
                "ui_scale: {} is outside {}–{}",
                self.ui_scale,
                UI_SCALE_RANGE.start(),
                UI_SCALE_RANGE.end()
            ));
        }
        if !PACE_RANGE.contains(&self.computer_pace_s) {
            return Err(format!(
                "computer_pace_s: {} is outside {}–{} seconds",
                self.computer_pace_s,
                PACE_RANGE.start(),
                PACE_RANGE.end()
            ));
        }
        Ok(())
    }
}

/// Where the settings live (`None`: not kept, e.g. for an automated screenshot), and what was
/// wrong with the file when it was read.
#[derive(Resource, Debug, Clone, Default)]
pub struct SettingsFile {
    pub path: Option<PathBuf>,
    /// The file could not be used (the program runs with the defaults); saving first keeps it
    /// as `settings.ron.bad`.
    pub problem: Option<String>,
    /// The last save failed: why.
    pub save_error: Option<String>,
}

impl SettingsFile {
    /// The settings kept in `dir` (or none kept), read.
    pub fn open(dir: Option<&Path>) -> (Self, Settings) {
        let Some(dir) = dir else {
            return (Self::default(), Settings::default());
        };
        let path = dir.join("settings.ron");
        let (settings, problem) = load(&path);
        if let Some(p) = &problem {
            warn!("settings: {p}; playing with the defaults");
        }
        (
            Self {
                path: Some(path),
                problem,
                save_error: None,
            },
            settings,
        )
    }

    /// Keeps `settings` (nothing when this run keeps none), noting a failure.
    pub fn keep(&mut self, settings: &Settings) {
        self.save_error = save(self, settings).err().map(|e| e.to_string());
    }
}

/// The platform's config folder (e.g. `~/.config/sandtable` on Linux).
pub fn config_dir() -> PathBuf {
    directories::ProjectDirs::from("org", "Sandtable", "sandtable")
        .map(|d| d.config_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Reads the settings at `path`: the defaults when there is no file, and the defaults with a
/// message naming the file and the place at fault (`FILE:LINE:COL`) when it cannot be used.
pub fn load(path: &Path) -> (Settings, Option<String>) {
    if !path.exists() {
        return (Settings::default(), None);
    }
    match data_file::read_ron::<Settings>(path) {
        Ok(s) => match s.check() {
            Ok(()) => (s, None),
            Err(e) => (
                Settings::default(),
                Some(format!("{}: {e}", path.display())),
            ),
        },
        Err(e) => (Settings::default(), Some(e.to_string())),
    }
}

/// Writes the settings atomically; a file that could not be read is first kept beside it.
pub fn save(file: &mut SettingsFile, settings: &Settings) -> std::io::Result<()> {
    let Some(path) = file.path.clone() else {
        return Ok(());
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if file.problem.is_some() && path.is_file() {
        let mut bad = path.clone().into_os_string();
        bad.push(".bad");
        std::fs::rename(&path, bad)?;
    }
    file.problem = None;
    let text = data_file::to_ron_pretty(settings).map_err(std::io::Error::other)?;
    data_file::write_atomic(&path, &text)
}

/// Puts the settings into the app: those already there (`build_app` reads them before it opens
/// the window, whose scale they set), else those kept in `dir`.
pub fn install(app: &mut App, dir: Option<&Path>) {
    if !app.world().contains_resource::<Settings>() {
        let (file, settings) = SettingsFile::open(dir);
        app.insert_resource(settings).insert_resource(file);
    }
    let settings = app.world().resource::<Settings>();
    let pace = settings.computer_pace_s;
    crate::palette::set_side_palette(settings.side_palette);
    app.insert_resource(crate::computer::ComputerPace(pace))
        .add_systems(Update, follow_settings.run_if(resource_changed::<Settings>));
}

/// The computer's pace, the planner's "Commit?" and coach, and the sides' colours follow the
/// settings; a new palette redraws the table.
fn follow_settings(
    settings: Res<Settings>,
    mut pace: ResMut<crate::computer::ComputerPace>,
    draft: Option<ResMut<crate::table::draft::Draft>>,
    battle: Option<ResMut<crate::battle::Battle>>,
) {
    pace.0 = settings.computer_pace_s;
    if let Some(mut d) = draft {
        d.ask_first = settings.confirm_commit;
        d.coached = settings.coach;
    }
    crate::palette::set_side_palette(settings.side_palette);
    if let Some(mut b) = battle {
        b.set_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> tempfile::TempDir {
        crate::scratch_folder(&format!("settings-{name}"))
    }

    #[test]
    fn settings_survive_a_save_and_a_load() {
        let folder = scratch("round");
        let dir = folder.path().to_path_buf();
        let (mut file, loaded) = SettingsFile::open(Some(&dir));
        assert_eq!((loaded, file.problem.clone()), (Settings::default(), None));
        let s = Settings {
            ui_scale: 1.5,
            tape_unit: TapeUnit::Inches,
            computer_pace_s: 1.0,
            confirm_commit: true,
            side_palette: crate::palette::SidePalette::YellowDarkBlue,
            coach: false,
        };
        file.keep(&s);
        assert_eq!(file.save_error, None);
        assert_eq!(load(&dir.join("settings.ron")), (s, None));
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["settings.ron"], "no temporary file is left");
    }

    #[test]
    fn a_bad_settings_file_names_its_place_and_is_kept_before_the_first_save() {
        let folder = scratch("bad");
        let dir = folder.path().to_path_buf();
        let path = dir.join("settings.ron");
        std::fs::write(&path, "Settings(\n  ui_scale: 1.2,\n  colour: 3,\n)\n").unwrap();
        let (s, problem) = load(&path);
        assert_eq!(s, Settings::default());
        let problem = problem.expect("a problem");
        assert!(problem.contains("settings.ron:3:"), "{problem}");
        assert!(problem.contains("colour"), "{problem}");
        std::fs::write(&path, "Settings(ui_scale: 9.0)").unwrap();
        let (_, problem) = load(&path);
        let problem = problem.expect("out of bounds");
        assert!(problem.contains("ui_scale: 9"), "{problem}");
        // Nothing kept: nothing written.
        let mut none = SettingsFile::default();
        none.keep(&Settings::default());
        assert_eq!(none.save_error, None);
        let (mut file, loaded) = SettingsFile::open(Some(&dir));
        assert_eq!(loaded, Settings::default());
        assert!(
            file.problem
                .as_deref()
                .is_some_and(|p| p.contains("ui_scale"))
        );
        file.keep(&Settings::default());
        assert_eq!(file.save_error, None);
        assert_eq!(
            std::fs::read_to_string(dir.join("settings.ron.bad")).unwrap(),
            "Settings(ui_scale: 9.0)"
        );
        assert_eq!(load(&path), (Settings::default(), None));
    }

    #[test]
    fn the_tape_starts_in_the_unit_chosen() {
        use LengthUnit::*;
        assert_eq!(TapeUnit::Ruleset.resolve(Inches), Inches);
        assert_eq!(TapeUnit::Centimetres.resolve(Inches), Centimetres);
        assert_eq!(TapeUnit::Inches.resolve(Centimetres), Inches);
    }
}
