//! [`Present`]: what a ruleset tells the app to draw and offer. Every method starts from a seat's
//! view (`Ruleset::view`), so nothing here can show a seat what the rules hide from it; the
//! engine fills in whether each menu item is allowed (from `Ruleset::legal`), never the app.

use crate::narration::Narration;
use crate::present::{
    Card, Handle, LengthUnit, Menu, MenuChoices, MenuItem, OddsChart, OverlayKind, PieceId,
    PoolLine, PreviewReport, Shape, TableScene,
};
use crate::ruleset::{RuleError, Ruleset, Seat};
use sandtable_geometry::Vec2;

pub trait Present: Ruleset {
    /// The rule that says whose decision it is, cited when the wrong seat tries to act.
    const TURN_RULE: &'static str;

    /// How this ruleset measures on screen (the tape's default unit).
    fn length_unit() -> LengthUnit {
        LengthUnit::Centimetres
    }

    /// The table as `seat` sees it: terrain, pieces with their labels and tokens, objectives.
    fn table(view: &Self::State, seat: Seat) -> TableScene;

    /// The overlays a player can switch on.
    fn overlays() -> &'static [OverlayKind] {
        &[]
    }

    /// Shapes for the selection and the overlays switched on (`overlays` holds their ids):
    /// legal targets, fields of vision, weapon bands, command ranges, zones.
    fn shapes(
        view: &Self::State,
        seat: Seat,
        selection: Option<PieceId>,
        overlays: &[&str],
    ) -> Vec<Shape>;

    /// What `seat` may do now with the selection (or with nothing selected: bids, choices),
    /// given the plan being built. Items come with `allowed: Ok(())`; the engine checks them.
    fn menu(
        view: &Self::State,
        seat: Seat,
        selection: Option<PieceId>,
        plan: Option<&Self::Command>,
        choices: &MenuChoices,
    ) -> Menu<Self::Command>;

    /// The command that ends the current step ("End Orders"), if there is one.
    fn next_step(view: &Self::State, seat: Seat) -> Option<MenuItem<Self::Command>>;

    /// A planned command in words and shapes: its cost, ghost, path and odds, or why not.
    fn describe(
        view: &Self::State,
        seat: Seat,
        cmd: &Self::Command,
        preview: Result<Self::Preview, RuleError>,
    ) -> PreviewReport;

    /// Where the selected piece can be grabbed to plan a move by dragging, given the plan so
    /// far (handles sit on the ghost). Empty when it cannot move now.
    fn handles(
        view: &Self::State,
        seat: Seat,
        piece: PieceId,
        plan: Option<&Self::Command>,
    ) -> Vec<Handle>;

    /// The plan after dragging `handle` from `from` to `to` (cm): the plan so far with the
    /// dragged step added. `None` when the drag means nothing yet.
    #[allow(clippy::too_many_arguments)]
    fn drag(
        view: &Self::State,
        seat: Seat,
        piece: PieceId,
        plan: Option<&Self::Command>,
        handle: u8,
        from: Vec2,
        to: Vec2,
    ) -> Option<Self::Command>;

    /// The plan after clicking `target` with `piece` selected (a charge at it), if that means
    /// anything.
    fn click(
        view: &Self::State,
        seat: Seat,
        piece: PieceId,
        plan: Option<&Self::Command>,
        target: PieceId,
    ) -> Option<Self::Command>;

    /// The plan with its last step dropped; `None` when nothing is left.
    fn drop_last(plan: &Self::Command) -> Option<Self::Command>;

    /// The piece's card: its profile and state.
    fn card(view: &Self::State, seat: Seat, piece: PieceId) -> Option<Card>;

    /// The hover tooltip for `piece`, knowing the selection (what an order from a selected
    /// commander would cost, say). The first line is the title.
    fn tooltip(
        view: &Self::State,
        seat: Seat,
        piece: PieceId,
        selection: Option<PieceId>,
    ) -> Vec<String>;

    /// Resources worth keeping in view (command points).
    fn pools(view: &Self::State, seat: Seat) -> Vec<PoolLine>;

    /// The rolls the current step will make, with their odds (the volleys about to be fired).
    fn forecast(view: &Self::State, seat: Seat) -> Vec<OddsChart>;

    /// One event in words for `seat` (its secrets redacted for the other seat; `None` shows
    /// everything, for a finished battle or the CLI). `state` gives names.
    fn narrate(state: &Self::State, seat: Option<Seat>, event: &Self::Event) -> Narration;

    /// The file in `assets/help/` with this ruleset's plain-language rule help.
    fn help_file() -> &'static str;
}
