//! The Napoleonic ruleset as the app sees it, behind the engine's [`Present`] seam: the table in
//! inches, menus, plans, shapes, cards and narration. The app draws all of it and computes none.

pub mod cards;
pub mod menu;
pub mod narration;
pub mod plan;
pub mod shapes;
pub mod table;

use crate::command::Command;
use crate::event::Event;
use crate::preview::Preview;
use crate::ruleset::Napoleonic;
use crate::state::Game;
use sandtable_engine::narration::Narration;
use sandtable_engine::present::{
    Card, Handle, LengthUnit, Menu, MenuChoices, MenuItem, OddsChart, OverlayKind, PieceId,
    PoolLine, PreviewReport, Shape, TableScene,
};
use sandtable_engine::{Present, RuleError, Seat};
use sandtable_geometry::Vec2;

impl Present for Napoleonic {
    const TURN_RULE: &'static str = "NQ-SEQ-1";

    fn length_unit() -> LengthUnit {
        LengthUnit::Inches
    }

    fn table(view: &Game, seat: Seat) -> TableScene {
        table::table(view, seat)
    }

    fn overlays() -> &'static [OverlayKind] {
        shapes::OVERLAYS
    }

    fn shapes(
        view: &Game,
        seat: Seat,
        selection: Option<PieceId>,
        overlays: &[&str],
    ) -> Vec<Shape> {
        shapes::shapes(view, seat, selection, overlays)
    }

    fn menu(
        view: &Game,
        seat: Seat,
        selection: Option<PieceId>,
        plan: Option<&Command>,
        choices: &MenuChoices,
    ) -> Menu<Command> {
        menu::menu(view, seat, selection, plan, choices)
    }

    fn next_step(view: &Game, _seat: Seat) -> Option<MenuItem<Command>> {
        menu::next_step(view)
    }

    fn describe(
        view: &Game,
        seat: Seat,
        cmd: &Command,
        preview: Result<Preview, RuleError>,
    ) -> PreviewReport {
        plan::describe(view, seat, cmd, preview)
    }

    fn handles(view: &Game, seat: Seat, piece: PieceId, plan: Option<&Command>) -> Vec<Handle> {
        plan::handles(view, seat, piece, plan)
    }

    fn drag(
        view: &Game,
        seat: Seat,
        piece: PieceId,
        plan: Option<&Command>,
        handle: u8,
        from: Vec2,
        to: Vec2,
    ) -> Option<Command> {
        plan::drag(view, seat, piece, plan, handle, from, to)
    }

    fn click(
        view: &Game,
        seat: Seat,
        piece: PieceId,
        plan: Option<&Command>,
        target: PieceId,
    ) -> Option<Command> {
        plan::click(view, seat, piece, plan, target)
    }

    fn drop_last(plan: &Command) -> Option<Command> {
        plan::drop_last(plan)
    }

    fn card(view: &Game, _seat: Seat, piece: PieceId) -> Option<Card> {
        cards::card(view, piece)
    }

    fn tooltip(
        view: &Game,
        _seat: Seat,
        piece: PieceId,
        selection: Option<PieceId>,
    ) -> Vec<String> {
        cards::tooltip(view, piece, selection)
    }

    fn pools(view: &Game, seat: Seat) -> Vec<PoolLine> {
        cards::pools(view, seat)
    }

    fn forecast(_view: &Game, _seat: Seat) -> Vec<OddsChart> {
        Vec::new()
    }

    fn narrate(state: &Game, seat: Option<Seat>, event: &Event) -> Narration {
        narration::narrate(state, seat, event)
    }

    fn help_file() -> &'static str {
        "napoleonic-rules.ron"
    }
}
