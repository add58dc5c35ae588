//! Command-line flags. Most players run `sandtable` with none; the flags serve automated checks
//! and the README's screenshot.

use clap::Parser;
use std::path::PathBuf;

/// Sandtable: a tabletop wargame table for horse-and-musket rulesets.
#[derive(Debug, Clone, Parser, Default)]
#[command(version, about, long_about = None)]
pub struct Args {
    /// Open this scenario file directly instead of the start screen.
    #[arg(long, value_name = "PATH")]
    pub scenario: Option<PathBuf>,

    /// Render the opening view of the scenario (the default one if --scenario is not given),
    /// write it as a PNG to PATH, and exit. Also writes PATH with `.probes.ron` appended: screen
    /// positions of known things and the colours they should have, for pixel checks.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,

    /// With --screenshot, capture the start screen instead of opening the default battle.
    #[arg(long)]
    pub start_screen: bool,

    /// Offer the scenario (--scenario, or the default one) by email to the player whose public
    /// key is KEY: writes the battle's first turn file and opens the battle, waiting for them.
    #[arg(long, value_name = "KEY")]
    pub offer_to: Option<String>,

    /// Open a turn file received: accept the battle it offers, or go on with the one it
    /// continues.
    #[arg(long, value_name = "PATH")]
    pub turn_file: Option<PathBuf>,

    /// Host the scenario (--scenario, or the default one) live on ADDR (e.g. 0.0.0.0:7878):
    /// the start screen waits for a player with the join code.
    #[arg(long, value_name = "ADDR")]
    pub host: Option<String>,

    /// Open this scenario in the table editor at start.
    #[arg(long, value_name = "PATH")]
    pub edit: Option<PathBuf>,

    /// On the start screen, open "Set up a battle": the force builder, and the pre-battle
    /// sequence.
    #[arg(long)]
    pub setup: bool,

    /// Open "Set up a battle" on its second part, the pre-battle sequence (implies `--setup`).
    #[arg(long)]
    pub setup_sequence: bool,

    /// Begin the pre-battle sequence between these two force files (`A,B`) at start; with
    /// --computer, the computer takes those sides. Implies --setup.
    #[arg(long, value_name = "A,B")]
    pub setup_forces: Option<String>,

    /// With --setup-forces, let the computer make this many of the sequence's choices for
    /// whoever decides (for screenshots of later steps).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub setup_steps: usize,

    /// With --setup-forces, leave the hand-over curtain down at the step reached (for
    /// screenshots of it).
    #[arg(long)]
    pub setup_curtain: bool,

    /// On the start screen, open "Play with someone elsewhere" (for screenshots).
    #[arg(long)]
    pub open_remote: bool,

    /// Folder holding `scenarios/` and `assets/` (default: found next to the program or in the
    /// current folder).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// Folder for saves and the autosave (default: the platform's data folder, or
    /// $SANDTABLE_SAVES).
    #[arg(long, value_name = "DIR")]
    pub saves: Option<PathBuf>,

    /// Folder for the settings file, `settings.ron` (default: the platform's config folder;
    /// with --screenshot and no --config, the defaults are used and nothing is kept).
    #[arg(long, value_name = "DIR")]
    pub config: Option<PathBuf>,

    /// Before --screenshot, play N commands chosen by the scripted demo player (for screenshots of
    /// later phases).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub autoplay: usize,

    /// In a lesson, ask for this many hints (1–3) on the step reached, for screenshots of the
    /// hints and of the exact move drawn on the table.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub hints: u8,

    /// After --autoplay, plan a command the coach reckons a clear blunder and commit it once,
    /// for screenshots of the coach's question.
    #[arg(long)]
    pub show_coach: bool,

    /// Let the computer play a side: a (the scenario's first side), b, or both.
    #[arg(long, value_name = "SIDE", value_parser = ["a", "b", "both"])]
    pub computer: Option<String>,

    /// How well the computer plays: recruit, veteran (the default) or general.
    #[arg(long, value_name = "LEVEL", default_value = "veteran", value_parser = ["recruit", "veteran", "general"])]
    pub level: String,

    /// Open the help window of this rule (e.g. BFS-SHO-14) once the battle shows (for
    /// screenshots).
    #[arg(long, value_name = "RULE")]
    pub open_rule: Option<String>,

    /// Open the settings window at start (for screenshots of it).
    #[arg(long)]
    pub open_settings: bool,

    /// Open the sheet of keys at start (for screenshots of it).
    #[arg(long)]
    pub open_keys: bool,

    /// Show the computer's reason for its last command ("Why?") from the start (for
    /// screenshots of it).
    #[arg(long)]
    pub open_why: bool,

    /// Lay the measuring tape between two pieces once the battle shows, by their scenario ids
    /// (`A,B`), for screenshots of the tape in the ruleset's unit.
    #[arg(long, value_name = "A,B")]
    pub measure: Option<String>,

    /// Select a piece once the battle shows, by its scenario id, and switch on the overlays
    /// named after it (`KEY[,OVERLAY…]`, e.g. `gun-1,fire`), for screenshots of its card and
    /// shapes.
    #[arg(long, value_name = "KEY[,OVERLAY...]")]
    pub select: Option<String>,

    /// Roll the battle's dice from this seed instead of the scenario's own: a lesson or a battle
    /// whose dice fall another way. It seeds the pre-battle sequence's dice too.
    #[arg(long, value_name = "SEED")]
    pub dice: Option<u64>,

    /// Window width and height in logical pixels.
    #[arg(long, value_name = "W", default_value_t = 1280)]
    pub width: u32,
    #[arg(long, value_name = "H", default_value_t = 800)]
    pub height: u32,
}

impl Args {
    /// Where the settings are kept: `--config`, else the platform's config folder, except for an
    /// automated `--screenshot`, which renders with the defaults whatever a player chose.
    pub fn settings_dir(&self) -> Option<PathBuf> {
        self.config
            .clone()
            .or_else(|| self.screenshot.is_none().then(crate::settings::config_dir))
    }

    /// The computer's level, from `--level`.
    pub fn level(&self) -> sandtable_ai::Level {
        self.level.parse().unwrap_or_default()
    }

    /// Who plays each side, from `--computer`.
    pub fn seats(&self) -> [crate::battle::SeatKind; 2] {
        use crate::battle::SeatKind::{Computer, Human};
        match self.computer.as_deref() {
            Some("a") => [Computer, Human],
            Some("b") => [Human, Computer],
            Some("both") => [Computer, Computer],
            _ => [Human, Human],
        }
    }
}
