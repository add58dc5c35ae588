//! The app's screens: the start screen (scenario list) and the battle.

use crate::battle::{Battle, SeatKind};
use crate::catalogue::Catalogue;
use crate::paths::DataPaths;
use crate::rulesets::Rulesets;
use bevy::prelude::*;
use sandtable_engine::registry::Variant;

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Start,
    Battle,
}

/// A request to open a scenario, and why the last attempt failed.
#[derive(Resource, Debug, Clone, Default)]
pub struct OpenRequest {
    pub path: Option<std::path::PathBuf>,
    /// Shown on the start screen when a scenario given on the command line failed to load.
    pub error: Option<Vec<String>>,
    /// Who plays each side in the battle to open.
    pub seats: [SeatKind; 2],
    /// How well the computer plays its sides.
    pub level: sandtable_ai::Level,
    /// Resume this save instead of opening a scenario.
    pub save: Option<std::path::PathBuf>,
    /// Roll the dice from this seed instead of the scenario's own (`--dice`).
    pub dice: Option<u64>,
    /// Play with someone elsewhere (`crate::remote`).
    pub remote: Option<RemoteAction>,
}

/// What the start screen's "Play with someone elsewhere" asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum RemoteAction {
    /// Offer the scenario by email, playing `seat`, to the player whose key is given.
    Email {
        scenario: std::path::PathBuf,
        seat: u8,
        opponent: String,
    },
    /// Open a turn file: accept a battle offered, or go on with one in progress.
    OpenFile(std::path::PathBuf),
    /// Go on with a battle kept in this folder.
    Resume(std::path::PathBuf),
    /// Host the scenario live on this address.
    Host {
        scenario: std::path::PathBuf,
        bind: String,
    },
    /// Join a live battle.
    Join { addr: String, code: String },
}

pub(crate) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<OpenRequest>()
        .init_resource::<crate::rulesets::RemoteRulesets>()
        .add_systems(Startup, (scan_catalogue, scan_resume))
        .add_systems(Update, (open_requested, settle_live, crate::remote::poll))
        .add_systems(OnEnter(Screen::Start), |mut commands: Commands| {
            commands.remove_resource::<Battle>()
        });
}

fn scan_catalogue(mut commands: Commands, paths: Res<DataPaths>, rulesets: Res<Rulesets>) {
    commands.insert_resource(Catalogue::scan(&paths, &rulesets));
}

fn scan_resume(mut commands: Commands, dir: Res<crate::saves::SaveDir>, rulesets: Res<Rulesets>) {
    commands.insert_resource(crate::saves::ResumeOffer::scan(&dir, &rulesets));
}

/// Opens the requested scenario: the battle screen on success, the start screen with the errors
/// otherwise. Nothing here can crash on a bad file.
fn open_requested(
    mut commands: Commands,
    mut request: ResMut<OpenRequest>,
    paths: Res<DataPaths>,
    rulesets: Res<Rulesets>,
    remote: Res<crate::rulesets::RemoteRulesets>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(action) = request.remote.take() {
        use crate::remote as r;
        let opened = match action {
            RemoteAction::Email {
                scenario,
                seat,
                opponent,
            } => r::start_by_email(&remote, &rulesets, &scenario, &paths.dirs, seat, &opponent),
            RemoteAction::OpenFile(path) => r::open_turn_file(&remote, &path),
            RemoteAction::Resume(folder) => r::resume(&remote, &folder),
            RemoteAction::Host { scenario, bind } => {
                match r::host(&remote, &rulesets, &scenario, &paths.dirs, &bind) {
                    Ok(p) => {
                        commands.insert_resource(p);
                        request.error = None;
                    }
                    Err(e) => request.error = Some(vec![e]),
                }
                return;
            }
            RemoteAction::Join { addr, code } => {
                match r::join(&addr, &code) {
                    Ok(p) => {
                        commands.insert_resource(p);
                        request.error = None;
                    }
                    Err(e) => request.error = Some(vec![e]),
                }
                return;
            }
        };
        match opened {
            Ok(b) => {
                commands.insert_resource(b);
                request.error = None;
                next.set(Screen::Battle);
            }
            Err(e) => request.error = Some(vec![e]),
        }
        return;
    }
    if let Some(save) = request.save.take() {
        match crate::saves::load(&rulesets.0, &save) {
            Ok(b) => {
                let mut b = b.with_coach(&rulesets.0);
                b.set_seats(request.seats);
                b.set_level(request.level);
                commands.insert_resource(b);
                request.error = None;
                next.set(Screen::Battle);
            }
            Err(e) => {
                request.error = Some(vec![format!(
                    "{} cannot be resumed, and it is left as it is: {e}",
                    save.display()
                )])
            }
        }
        return;
    }
    let Some(path) = request.path.take() else {
        return;
    };
    match rulesets
        .0
        .open_scenario(
            &path,
            &paths.dirs,
            Variant {
                seed: request.dice.take(),
                ..Default::default()
            },
        )
        .map(|game| Battle::with_seats(game, path.clone(), request.seats).with_coach(&rulesets.0))
        .map_err(|e| e.lines())
    {
        Ok(mut b) => {
            b.set_level(request.level);
            commands.insert_resource(b);
            request.error = None;
            next.set(Screen::Battle);
        }
        Err(lines) => {
            request.error = Some(lines);
            next.set(Screen::Start);
        }
    }
}

/// A live game being set up: once the battle exists, to the battle screen.
fn settle_live(
    mut commands: Commands,
    pending: Option<ResMut<crate::remote::PendingLive>>,
    paths: Res<DataPaths>,
    rulesets: Res<Rulesets>,
    remote: Res<crate::rulesets::RemoteRulesets>,
    mut next: ResMut<NextState<Screen>>,
    mut request: ResMut<OpenRequest>,
) {
    let Some(mut pending) = pending else {
        return;
    };
    match crate::remote::settle(&mut pending, &remote, &rulesets, &paths.dirs) {
        Some(Ok(b)) => {
            commands.remove_resource::<crate::remote::PendingLive>();
            commands.insert_resource(b);
            request.error = None;
            next.set(Screen::Battle);
        }
        Some(Err(e)) => {
            commands.remove_resource::<crate::remote::PendingLive>();
            request.error = Some(vec![e]);
        }
        None => {}
    }
}
