//! Setting up a battle as the book does: the force builder and the pre-battle sequence, run with
//! two players at one screen (the curtain hides each side's secrets), against the computer, or
//! the computer on both sides. Everything about the rules comes through the engine's
//! `prebattle` seam; this file keeps only who is at the screen and where files go. The window
//! that draws it is `ui::setup_window`.

use crate::battle::SeatKind;
use crate::paths::DataPaths;
use crate::rulesets::PreBattleRulesets;
use crate::screens::OpenRequest;
use bevy::prelude::*;
use sandtable_engine::data_file;
use sandtable_engine::prebattle::{
    ForceBuilder, ForceDraft, ForceReport, PreBattle, PreBattleEntry, SetupChoice, SetupLine,
    SetupStep, SetupTable,
};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which half of the window shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SetupTab {
    #[default]
    Build,
    Sequence,
}

/// The set-up window's state.
#[derive(Resource, Default)]
pub struct BattleSetup {
    pub open: bool,
    pub tab: SetupTab,
    entry: Option<PreBattleEntry>,
    builder: Option<Box<dyn ForceBuilder>>,
    pub draft: ForceDraft,
    pub report: ForceReport,
    /// What the last save or load did, or why it could not.
    pub notice: Option<String>,
    /// Force files to choose from: the shipped ones, then the player's own.
    pub forces: Vec<PathBuf>,
    pub chosen: [usize; 2],
    pub seats: [SeatKind; 2],
    sequence: Option<Mutex<Box<dyn PreBattle>>>,
    /// The seat looking at the screen; `None` while the curtain is down between two players.
    pub viewer: Option<u8>,
    pub error: Option<String>,
    own_forces: PathBuf,
    own_scenarios: Option<PathBuf>,
    /// The two forces' names, public to both seats.
    names: [String; 2],
    /// The group of placements the person is placing from the table (`SetupChoice::group`).
    pub place_group: Option<String>,
    /// The sequence's dice seed (`--dice`); by default "Begin the sequence" draws one from the
    /// clock.
    pub seed: Option<u64>,
    /// The optional rules of the sequence the players chose to play (names from the ruleset's
    /// `PreBattleEntry::options`).
    pub options: Vec<String>,
}

impl BattleSetup {
    /// The window's state for the data folders and the rulesets that have a sequence.
    pub fn new(paths: &DataPaths, entries: &PreBattleRulesets, own_forces: PathBuf) -> Self {
        let entry = entries.0.first().copied();
        let builder = entry.map(|e| (e.builder)(&paths.dirs));
        let mut s = Self {
            entry,
            builder,
            own_forces,
            own_scenarios: paths.own.clone(),
            chosen: [0, 1],
            ..Default::default()
        };
        s.scan_forces(paths);
        if let Some(first) = s.lists().first() {
            s.new_force(&first.0.clone());
        }
        s
    }

    /// Every force file in the shipped folder and the player's own, sorted by name in each.
    pub fn scan_forces(&mut self, paths: &DataPaths) {
        let mut all = Vec::new();
        for dir in [&paths.dirs.forces, &self.own_forces] {
            let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .collect();
            found.sort();
            all.extend(found);
        }
        self.forces = all;
        for c in &mut self.chosen {
            *c = (*c).min(self.forces.len().saturating_sub(1));
        }
    }

    // ---- The force builder ----

    pub fn lists(&self) -> Vec<(String, String)> {
        self.builder.as_ref().map(|b| b.lists()).unwrap_or_default()
    }

    pub fn rows(&self) -> Vec<sandtable_engine::prebattle::CardRow> {
        self.builder
            .as_ref()
            .map(|b| b.rows(&self.draft.list))
            .unwrap_or_default()
    }

    pub fn upgrades(&self) -> Vec<(String, String)> {
        self.builder
            .as_ref()
            .map(|b| b.upgrades(&self.draft.list))
            .unwrap_or_default()
    }

    /// A new force of `list`: its required rows taken with their black bases.
    pub fn new_force(&mut self, list: &str) {
        self.draft = ForceDraft {
            list: list.to_string(),
            name: "New force".into(),
            ..Default::default()
        };
        self.draft.picks = self
            .rows()
            .into_iter()
            .filter(|r| r.required)
            .map(|r| (r.key, r.min_bases))
            .collect();
        self.refresh();
    }

    /// Takes a row (with its fewest bases) or leaves it out.
    pub fn toggle(&mut self, key: &str, take: bool) {
        self.draft.picks.retain(|(k, _)| k != key);
        if take && let Some(r) = self.rows().into_iter().find(|r| r.key == key) {
            // Rows stay in the card's order.
            let order: Vec<String> = self.rows().into_iter().map(|r| r.key).collect();
            self.draft.picks.push((r.key, r.min_bases));
            self.draft
                .picks
                .sort_by_key(|(k, _)| order.iter().position(|o| o == k));
        }
        self.refresh();
    }

    pub fn set_bases(&mut self, key: &str, bases: u8) {
        if let Some(p) = self.draft.picks.iter_mut().find(|(k, _)| k == key) {
            p.1 = bases;
        }
        self.refresh();
    }

    /// The draft's values and problems again, as the rules see it.
    pub fn refresh(&mut self) {
        if let Some(b) = &self.builder {
            self.report = b.report(&self.draft);
        }
    }

    /// Saves the draft in the player's forces folder (atomically); refused while it breaks the
    /// card. Returns the file written.
    pub fn save_force(&mut self, paths: &DataPaths) -> Result<PathBuf, String> {
        self.refresh();
        if !self.report.problems.is_empty() {
            return Err(format!(
                "The force breaks its card: {}",
                self.report.problems.join("; ")
            ));
        }
        std::fs::create_dir_all(&self.own_forces)
            .map_err(|e| format!("{}: {e}", self.own_forces.display()))?;
        let path = self.own_forces.join(format!(
            "{}.ron",
            crate::paths::slug(&self.draft.name, "force")
        ));
        data_file::write_atomic(&path, &format!("{}\n", self.report.text))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.scan_forces(paths);
        self.notice = Some(format!("Saved as {}", path.display()));
        Ok(path)
    }

    /// Opens a force file into the builder, to edit it or save a copy under another name.
    pub fn load_force(&mut self, path: &Path) {
        let Some(b) = &self.builder else { return };
        let read = data_file::read_text(path).and_then(|t| b.read(path, &t));
        match read {
            Ok(d) => {
                self.draft = d;
                self.refresh();
                self.notice = Some(format!("Opened {}", path.display()));
            }
            Err(e) => self.notice = Some(e.lines().join("; ")),
        }
    }

    /// A force file's units as the scenario section's text, for the table editor.
    pub fn scenario_units(&self, path: &Path) -> Result<String, String> {
        let b = self
            .builder
            .as_ref()
            .ok_or("no ruleset here builds forces")?;
        let text = data_file::read_text(path).map_err(|e| e.lines().join("; "))?;
        let draft = b.read(path, &text).map_err(|e| e.lines().join("; "))?;
        b.scenario_units(&draft)
    }

    // ---- The sequence ----

    /// Begins the sequence between the two chosen forces.
    pub fn begin(&mut self, paths: &DataPaths, seed: u64) -> Result<(), String> {
        let entry = self
            .entry
            .ok_or("no ruleset here has a pre-battle sequence")?;
        let pick = |i: usize| {
            self.forces
                .get(self.chosen[i])
                .cloned()
                .ok_or("choose two forces first")
        };
        let (a, b) = (pick(0)?, pick(1)?);
        let seq = (entry.start)(&[&a, &b], &paths.dirs, seed, &self.options)
            .map_err(|e| e.lines().join("\n"))?;
        for (i, path) in [&a, &b].iter().enumerate() {
            self.names[i] = self
                .builder
                .as_ref()
                .and_then(|bld| {
                    let text = data_file::read_text(path).ok()?;
                    bld.read(path, &text).ok()
                })
                .map_or_else(|| format!("side {}", i + 1), |d| d.name);
        }
        self.sequence = Some(Mutex::new(seq));
        self.viewer = None;
        self.error = None;
        self.tab = SetupTab::Sequence;
        self.settle_viewer();
        Ok(())
    }

    /// The optional rules the ruleset's sequence offers: (name, what players call it).
    pub fn offered_options(&self) -> &'static [(&'static str, &'static str)] {
        self.entry.map_or(&[], |e| e.options)
    }

    /// A side's force name, as both seats know it.
    pub fn side_name(&self, seat: u8) -> &str {
        &self.names[seat.min(1) as usize]
    }

    pub fn running(&self) -> bool {
        self.sequence.is_some()
    }

    fn with<T>(&self, f: impl FnOnce(&dyn PreBattle) -> T) -> Option<T> {
        let m = self.sequence.as_ref()?;
        let guard = m.lock().unwrap_or_else(|e| e.into_inner());
        Some(f(guard.as_ref()))
    }

    pub fn step(&self) -> Option<SetupStep> {
        self.with(|s| s.step())
    }

    /// Both seats are people at this screen: the curtain is needed between them.
    pub fn hot_seat(&self) -> bool {
        self.seats == [SeatKind::Human, SeatKind::Human]
    }

    /// After a choice: who looks at the screen now. With one person, always that person; with
    /// two, the curtain comes down when the other must decide.
    fn settle_viewer(&mut self) {
        let to_act = self.step().and_then(|s| s.to_act);
        let people: Vec<u8> = (0..2u8)
            .filter(|i| self.seats[*i as usize] == SeatKind::Human)
            .collect();
        self.viewer = match people.as_slice() {
            [] => None,
            [one] => Some(*one),
            _ => match (to_act, self.viewer) {
                (Some(s), Some(v)) if s == v => Some(v),
                (Some(_), _) => None,
                // Ready: nothing secret remains, both may look.
                (None, _) => Some(0),
            },
        };
    }

    /// The seat the curtain waits for, when it is down.
    pub fn curtain(&self) -> Option<u8> {
        if self.viewer.is_some() || !self.hot_seat() {
            return None;
        }
        self.step().and_then(|s| s.to_act)
    }

    /// The player named behind the curtain is at the screen.
    pub fn lift_curtain(&mut self) {
        if let Some(s) = self.curtain() {
            self.viewer = Some(s);
        }
    }

    /// The choices of the person at the screen, if it is their decision.
    pub fn choices(&self) -> Vec<SetupChoice> {
        let Some(v) = self.viewer else {
            return Vec::new();
        };
        if self.step().and_then(|s| s.to_act) != Some(v)
            || self.seats[v as usize] != SeatKind::Human
        {
            return Vec::new();
        }
        self.with(|s| s.choices(v)).unwrap_or_default()
    }

    /// The person at the screen makes a choice.
    pub fn choose(&mut self, key: &str) -> Result<Vec<SetupLine>, String> {
        let v = self.viewer.ok_or("the curtain is down")?;
        let m = self.sequence.as_ref().ok_or("no sequence")?;
        let lines = {
            let mut guard = m.lock().unwrap_or_else(|e| e.into_inner());
            guard
                .choose(v, key)
                .map_err(|e| format!("{} ({})", e.message, e.rule))?
        };
        self.settle_viewer();
        Ok(lines)
    }

    /// The person at the screen clicks the table at `at` (cm) with a group of placements in
    /// hand: the allowed placement of that group nearest the click, within 10 cm, is chosen.
    pub fn place_at(&mut self, at: (f32, f32)) -> Result<bool, String> {
        let Some(group) = self.place_group.clone() else {
            return Ok(false);
        };
        let near = self
            .choices()
            .into_iter()
            .filter(|c| c.refused.is_none() && c.group.as_deref() == Some(group.as_str()))
            .filter_map(|c| {
                let p = c.at?;
                let d = (p.0 - at.0).hypot(p.1 - at.1);
                (d <= 10.0).then_some((d, c.key))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        match near {
            Some((_, key)) => self.choose(&key).map(|_| true),
            None => Ok(false),
        }
    }

    /// If a computer seat must decide, it does (one choice); true if it did.
    pub fn computer_step(&mut self, seed: u64) -> bool {
        let Some(seat) = self.step().and_then(|s| s.to_act) else {
            return false;
        };
        if self.seats[seat as usize] != SeatKind::Computer {
            return false;
        }
        let made = self.choose_for(seat, seed);
        self.settle_viewer();
        made
    }

    /// The computer chooses for `seat` (a computer seat, or a person who asked it to).
    pub fn choose_for(&mut self, seat: u8, seed: u64) -> bool {
        let Some(m) = self.sequence.as_ref() else {
            return false;
        };
        let mut guard = m.lock().unwrap_or_else(|e| e.into_inner());
        let offered: Vec<SetupChoice> = guard
            .choices(seat)
            .into_iter()
            .filter(|c| c.refused.is_none())
            .collect();
        if offered.is_empty() {
            return false;
        }
        let Ok(mut chooser) = sandtable_ai::setup::setup_chooser("ai", seed) else {
            return false;
        };
        let key = chooser(guard.as_ref(), &offered);
        let ok = guard.choose(seat, &key).is_ok();
        drop(guard);
        self.settle_viewer();
        ok
    }

    /// What the person at the screen may read: the record, the state of things and the table.
    pub fn log(&self) -> Vec<SetupLine> {
        let Some(v) = self.viewer else {
            return Vec::new();
        };
        self.with(|s| s.log(v)).unwrap_or_default()
    }

    pub fn summary(&self) -> Vec<String> {
        let Some(v) = self.viewer else {
            return Vec::new();
        };
        self.with(|s| s.summary(v)).unwrap_or_default()
    }

    pub fn table(&self) -> Option<SetupTable> {
        let v = self.viewer?;
        self.with(|s| s.table(v))
    }

    /// Once ready: writes the battle among the player's own scenarios and asks the app to open
    /// it with the seats chosen. Returns the file.
    pub fn start_battle(&mut self, request: &mut OpenRequest) -> Result<PathBuf, String> {
        let text = self
            .with(|s| s.scenario_text())
            .flatten()
            .ok_or("the battle is not ready yet")?;
        let dir = self
            .own_scenarios
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join("sandtable-setups"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        // Never over an earlier battle's file (two set-ups in one second).
        let path = (1..)
            .map(|n| match n {
                1 => dir.join(format!("setup-{stamp}.ron")),
                n => dir.join(format!("setup-{stamp}-{n}.ron")),
            })
            .find(|p| !p.exists())
            .expect("a free name");
        data_file::write_atomic(&path, &format!("{text}\n"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        request.path = Some(path.clone());
        request.seats = self.seats;
        self.open = false;
        self.sequence = None;
        Ok(path)
    }
}

/// What the command line asks of the window at start (`--setup`, `--setup-forces`,
/// `--setup-steps`).
#[derive(Resource, Debug, Clone, Default)]
pub struct SetupAtStart {
    pub open: bool,
    pub forces: Option<(PathBuf, PathBuf)>,
    pub seats: [SeatKind; 2],
    pub steps: usize,
    pub keep_curtain: bool,
    pub seed: Option<u64>,
    /// Open on the pre-battle sequence's tab.
    pub sequence_tab: bool,
}

impl SetupAtStart {
    pub fn from_args(args: &crate::args::Args) -> Self {
        let forces = args.setup_forces.as_deref().and_then(|f| {
            f.split_once(',')
                .map(|(a, b)| (PathBuf::from(a.trim()), PathBuf::from(b.trim())))
        });
        let computer = |side: &str| {
            if args
                .computer
                .as_deref()
                .is_some_and(|c| c == side || c == "both")
            {
                SeatKind::Computer
            } else {
                SeatKind::Human
            }
        };
        Self {
            open: args.setup || args.setup_sequence || forces.is_some(),
            forces,
            seats: [computer("a"), computer("b")],
            steps: args.setup_steps,
            keep_curtain: args.setup_curtain,
            seed: args.dice,
            sequence_tab: args.setup_sequence,
        }
    }
}

/// Makes the window's state at start-up, and lets computer seats decide, one choice a frame.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PreBattleRulesets>()
        .init_resource::<SetupAtStart>()
        .add_systems(Startup, make)
        .add_systems(Update, computer_seats);
}

fn make(
    mut commands: Commands,
    paths: Res<DataPaths>,
    entries: Res<PreBattleRulesets>,
    at_start: Res<SetupAtStart>,
) {
    let mut setup = BattleSetup::new(&paths, &entries, crate::paths::own_forces_dir());
    setup.open = at_start.open;
    setup.seed = at_start.seed;
    if at_start.sequence_tab {
        setup.tab = SetupTab::Sequence;
    }
    if let Some((a, b)) = &at_start.forces {
        setup.forces.extend([a.clone(), b.clone()]);
        let n = setup.forces.len();
        setup.chosen = [n - 2, n - 1];
        setup.seats = at_start.seats;
        match setup.begin(&paths, at_start.seed.unwrap_or(7)) {
            Ok(()) => {
                for k in 0..at_start.steps {
                    let Some(seat) = setup.step().and_then(|s| s.to_act) else {
                        break;
                    };
                    setup.choose_for(seat, k as u64);
                }
                // A person sits at the screen at the step reached: the curtain is lifted for
                // them, as they would lift it.
                if !at_start.keep_curtain {
                    setup.lift_curtain();
                }
            }
            Err(e) => setup.error = Some(e),
        }
    }
    commands.insert_resource(setup);
}

fn computer_seats(setup: Option<ResMut<BattleSetup>>, mut n: Local<u64>) {
    let Some(mut setup) = setup else { return };
    if setup.running() {
        *n += 1;
        setup.computer_step(*n);
    }
}
