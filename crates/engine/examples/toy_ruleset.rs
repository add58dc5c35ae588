//! The smallest ruleset that plugs into the engine's seam: "Race to ten". Two players take turns;
//! on your turn you may first choose to throw one die or two, then you throw and add the dice to
//! your total, or stand pat. The first to ten wins. One phase, three commands, a die — enough to
//! show every part of the seam. It is an example, not a game the program ships.
//!
//! Run it with `cargo run -p sandtable-engine --example toy_ruleset`; `docs/rulesets.md` walks
//! through it.

use sandtable_engine::dynamic::{AnyGame, TypedGame};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::narration::Narration;
use sandtable_engine::present::{
    Card, Handle, Menu, MenuChoices, MenuItem, OddsChart, Outcome, Piece, PieceId, PieceKind,
    PoolLine, PreviewReport, Shape, TableScene,
};
use sandtable_engine::scenario::{PieceSpec, RulesSection, Scenario};
use sandtable_engine::teach::{GoalParts, LessonNames, Teach};
use sandtable_engine::{
    Dice, LoadError, Present, Problem, Prompt, RuleError, Ruleset, Seat, Session, data_file,
};
use sandtable_geometry::{Pose, Rect, Vec2};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// 1. The state: everything, dice included.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Race {
    pub totals: [u32; 2],
    pub to_act: Seat,
    /// Dice the next throw uses (1 or 2).
    pub throw: u8,
    pub dice: Dice,
}

/// 2. The commands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Move {
    /// Throw this many dice (1 or 2) next: a choice that shows nothing and keeps the turn.
    Choose(u8),
    Roll,
    Stand,
}

/// 3. The events: what came of a command, for narration and lessons.
#[derive(Debug, Clone, Serialize)]
pub enum Happened {
    Chose {
        seat: Seat,
        dice: u8,
    },
    Rolled {
        seat: Seat,
        faces: Vec<u8>,
        total: u32,
    },
    Stood {
        seat: Seat,
    },
}

/// 4. The ruleset's section of the scenario file: nothing beyond the shared part here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct RaceRules {}

impl RulesSection for RaceRules {
    fn pieces(&self) -> Vec<PieceSpec> {
        Vec::new()
    }
    fn scale_lengths(&mut self, _factor: f32) {}
    fn check(&self, _scenario: &Scenario<Self>) -> Vec<Problem> {
        Vec::new()
    }
    fn scale_label(&self) -> String {
        "a race".into()
    }
}

pub const GOAL: u32 = 10;

pub struct Toy;

/// 5. The rules: pure functions of the state.
impl Ruleset for Toy {
    type State = Race;
    type Command = Move;
    type Event = Happened;
    type Preview = ();
    type Setup = Scenario<RaceRules>;
    const ID: &'static str = "toy";
    const NAME: &'static str = "Race to ten";

    fn setup(_setup: &Self::Setup, seed: u64) -> Result<Race, String> {
        Ok(Race {
            totals: [0, 0],
            to_act: 0,
            throw: 1,
            dice: Dice::from_seed(seed),
        })
    }

    fn prompt(s: &Race) -> Prompt {
        let over = s.totals.iter().any(|t| *t >= GOAL);
        Prompt {
            turn: 1,
            turn_limit: None,
            phase: "Race".into(),
            step: if over { "Over" } else { "Roll or stand" }.into(),
            seat: (!over).then_some(s.to_act),
            expected: "Roll a die and add it, or stand pat (TOY-RACE-1).".into(),
            secret: false,
        }
    }

    fn legal(s: &Race, cmd: &Move) -> Result<(), RuleError> {
        if s.totals.iter().any(|t| *t >= GOAL) {
            return Err(RuleError::new("TOY-RACE-2", "The race is over."));
        }
        if let Move::Choose(n) = cmd
            && !(1..=2).contains(n)
        {
            return Err(RuleError::new("TOY-RACE-1", "Throw one die or two."));
        }
        Ok(())
    }

    fn preview(s: &Race, cmd: &Move) -> Result<(), RuleError> {
        Self::legal(s, cmd)
    }

    fn execute(s: &mut Race, cmd: &Move) -> Result<Vec<Happened>, RuleError> {
        Self::legal(s, cmd)?;
        let seat = s.to_act;
        let event = match cmd {
            Move::Choose(n) => {
                s.throw = *n;
                // Choosing keeps the turn.
                return Ok(vec![Happened::Chose { seat, dice: *n }]);
            }
            Move::Roll => {
                let faces: Vec<u8> = (0..s.throw).map(|_| s.dice.d6()).collect();
                s.totals[seat as usize] += faces.iter().map(|f| *f as u32).sum::<u32>();
                Happened::Rolled {
                    seat,
                    faces,
                    total: s.totals[seat as usize],
                }
            }
            Move::Stand => Happened::Stood { seat },
        };
        s.to_act = 1 - seat;
        s.throw = 1;
        Ok(vec![event])
    }

    /// Nothing is secret in a race: both players see the same table.
    fn view(s: &Race, _seat: Seat) -> Race {
        let mut v = s.clone();
        // Nobody may foresee a die.
        v.dice = Dice::from_seed(0);
        v
    }

    fn candidates(s: &Race) -> Vec<Move> {
        if Self::prompt(s).seat.is_some() {
            vec![Move::Roll, Move::Stand, Move::Choose(2)]
        } else {
            Vec::new()
        }
    }

    fn holds_secrets(_s: &Race) -> bool {
        false
    }

    fn reveals(_e: &Happened) -> bool {
        false
    }

    fn dice_mut(s: &mut Race) -> &mut Dice {
        &mut s.dice
    }

    fn outcome(s: &Race) -> Option<Outcome> {
        let winner = (0..2u8).find(|i| s.totals[*i as usize] >= GOAL)?;
        Some(Outcome {
            winner: Some(winner),
            result: "victory".into(),
            reason: format!("reached {GOAL} (TOY-RACE-2)"),
            table: vec![
                vec!["".into(), "total".into()],
                vec!["first".into(), s.totals[0].to_string()],
                vec!["second".into(), s.totals[1].to_string()],
            ],
            explanation: "The first to ten wins.".into(),
        })
    }
}

/// 6. What the app draws and offers: a menu is all this game needs.
impl Present for Toy {
    const TURN_RULE: &'static str = "TOY-RACE-1";

    /// Each player's runner stands as far along the table as its total.
    fn table(s: &Race, _seat: Seat) -> TableScene {
        let runner = |seat: Seat| {
            let at = Vec2::new(
                5.0 + 5.0 * s.totals[seat as usize] as f32,
                10.0 + 10.0 * seat as f32,
            );
            Piece {
                id: PieceId(seat as u32),
                key: format!("runner-{seat}"),
                kind: PieceKind::Leader,
                side: seat,
                label: format!("Player {}", seat + 1),
                bases: vec![Rect::new(Pose::new(at, 0.0), Vec2::splat(1.5))],
                label_at: at - Vec2::new(0.0, 3.0),
                tokens: Vec::new(),
                emblem: None,
            }
        };
        TableScene {
            size: Vec2::new(60.0, 30.0),
            unit: Default::default(),
            terrain: Vec::new(),
            pieces: vec![runner(0), runner(1)],
            objectives: Vec::new(),
        }
    }
    fn shapes(_: &Race, _: Seat, _: Option<PieceId>, _: &[&str]) -> Vec<Shape> {
        Vec::new()
    }
    fn menu(
        s: &Race,
        seat: Seat,
        _: Option<PieceId>,
        _: Option<&Move>,
        _: &MenuChoices,
    ) -> Menu<Move> {
        let mut m = Menu::default();
        if Self::prompt(s).seat == Some(seat) {
            m.items
                .push(MenuItem::new("Roll the die", Move::Roll).key('R'));
            m.items
                .push(MenuItem::new("Stand pat", Move::Stand).key('P'));
        }
        m
    }
    fn next_step(_: &Race, _: Seat) -> Option<MenuItem<Move>> {
        None
    }
    fn describe(_: &Race, _: Seat, _: &Move, p: Result<(), RuleError>) -> PreviewReport {
        PreviewReport {
            refused: p.err(),
            ..Default::default()
        }
    }
    fn handles(_: &Race, _: Seat, _: PieceId, _: Option<&Move>) -> Vec<Handle> {
        Vec::new()
    }
    fn drag(
        _: &Race,
        _: Seat,
        _: PieceId,
        _: Option<&Move>,
        _: u8,
        _: Vec2,
        _: Vec2,
    ) -> Option<Move> {
        None
    }
    fn click(_: &Race, _: Seat, _: PieceId, _: Option<&Move>, _: PieceId) -> Option<Move> {
        None
    }
    fn drop_last(_: &Move) -> Option<Move> {
        None
    }
    fn card(_: &Race, _: Seat, _: PieceId) -> Option<Card> {
        None
    }
    fn tooltip(_: &Race, _: Seat, _: PieceId, _: Option<PieceId>) -> Vec<String> {
        Vec::new()
    }
    fn pools(s: &Race, _: Seat) -> Vec<PoolLine> {
        (0..2u8)
            .map(|i| PoolLine {
                side: i,
                text: format!("total {}", s.totals[i as usize]),
            })
            .collect()
    }
    fn forecast(_: &Race, _: Seat) -> Vec<OddsChart> {
        Vec::new()
    }
    fn narrate(_: &Race, _: Option<Seat>, e: &Happened) -> Narration {
        Narration::line(match e {
            Happened::Chose { seat, dice } => format!("Player {} will throw {dice}.", seat + 1),
            Happened::Rolled { seat, faces, total } => format!(
                "Player {} rolls {faces:?}: {total} in all (TOY-RACE-1).",
                seat + 1
            ),
            Happened::Stood { seat } => format!("Player {} stands pat.", seat + 1),
        })
    }
    fn help_file() -> &'static str {
        "toy-rules.ron"
    }
}

/// 7. What lessons and simple players need.
impl Teach for Toy {
    const LESSON_NAMES: LessonNames = LessonNames {
        commands: &["Choose", "Roll", "Stand"],
        events: &["Chose", "Rolled", "Stood"],
        phases: &["Race"],
        states: &[],
    };
    fn command_parts(_: &Race, cmd: &Move) -> GoalParts {
        GoalParts {
            kind: match cmd {
                Move::Choose(_) => "Choose",
                Move::Roll => "Roll",
                Move::Stand => "Stand",
            },
            ..Default::default()
        }
    }
    fn event_parts(_: &Race, e: &Happened) -> GoalParts {
        GoalParts {
            kind: match e {
                Happened::Chose { .. } => "Chose",
                Happened::Rolled { .. } => "Rolled",
                Happened::Stood { .. } => "Stood",
            },
            ..Default::default()
        }
    }
    fn phase_name(_: &Race) -> &'static str {
        "Race"
    }
    fn routine(_: &Move) -> bool {
        false
    }
    fn waiting_choice(_: &Race, options: &[Move]) -> Option<Move> {
        options.iter().find(|m| **m == Move::Stand).cloned()
    }
    fn standing_order(_: &Race, _: &[Move]) -> Option<Move> {
        None
    }
    fn scripted_choice(s: &Race) -> Option<Move> {
        Self::candidates(s).into_iter().next()
    }
}

/// 8. How its scenario files are read.
impl Files for Toy {
    type Section = RaceRules;
    fn load_scenario(path: &Path, text: &str, _dirs: &DataDirs) -> Result<Self::Setup, LoadError> {
        data_file::parse_ron(path, text)
    }
    fn scenario(setup: &Self::Setup) -> &Scenario<RaceRules> {
        setup
    }
    fn with_turn_limit(setup: Self::Setup, turns: u32) -> Self::Setup {
        setup.with_turn_limit(turns)
    }
}

/// A race set up without a file.
pub fn race_setup() -> Scenario<RaceRules> {
    let text = r#"Scenario(format: 2, name: "A race", ruleset: "toy", table: (width: 60.0, depth: 30.0),
        turn_limit: 1, sides: [Side(name: "First", home_edge: South), Side(name: "Second", home_edge: North)],
        rules: ())"#;
    data_file::parse_ron(Path::new("race.ron"), text).expect("the race scenario parses")
}

fn main() {
    // The app and the CLI hold a game of any ruleset through `AnyGame`; commands travel erased.
    let session = Session::<Toy>::new(race_setup(), 7).expect("set up");
    let mut game: Box<dyn AnyGame> = Box::new(TypedGame::new(session, race_setup().info()));
    while let Some(seat) = game.prompt().seat {
        let menu = game.menu(seat, None, None, &MenuChoices::new());
        let roll = menu
            .items
            .iter()
            .find(|i| i.key == Some('R'))
            .expect("a roll");
        assert!(roll.allowed.is_ok());
        game.submit(&roll.command).expect("legal");
    }
    for line in game.narration(None, 0).into_iter().flatten() {
        println!("{}", line.text);
    }
    let outcome = game.outcome().expect("over");
    println!(
        "Player {} wins: {}",
        outcome.winner.unwrap() + 1,
        outcome.reason
    );
}
