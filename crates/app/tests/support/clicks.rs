//! Injected input for the app's egui windows, headless: the test owns the primary egui context,
//! feeds it pointer and keyboard events as a window would, runs the app's own UI systems each
//! frame, and finds widgets by their text in egui's accessibility tree (the names a screen reader
//! would read), so a test clicks "Save the force" as a player does, not by calling a method.

#![allow(dead_code)]

use bevy::prelude::*;
use bevy_egui::egui::accesskit::{NodeId, Role, TreeUpdate};
use bevy_egui::{EguiContext, EguiPrimaryContextPass, EguiUserTextures, PrimaryEguiContext, egui};

/// The window the tests' egui draws into, logical px (as the headless app's primary window).
pub const SCREEN: egui::Vec2 = egui::vec2(1280.0, 800.0);

/// One widget of the last frame: its role, its accessible name and where it is.
#[derive(Debug, Clone)]
pub struct Widget {
    pub role: Role,
    pub label: String,
    pub value: Option<String>,
    pub rect: egui::Rect,
    pub toggled: Option<bool>,
    pub disabled: bool,
    /// The name of the egui window it sits in, if any (widgets of the screen beneath a window
    /// are in the tree too).
    pub window: Option<String>,
    /// Its node in the tree (egui's widget id), to find it again after scrolling.
    pub node: NodeId,
}

/// The egui side of a headless app: the context, the events for the next frame, the widgets of
/// the last.
#[derive(Resource, Clone)]
pub struct Clicks {
    ctx: egui::Context,
    events: Vec<egui::Event>,
    pub widgets: Vec<Widget>,
    time: f64,
}

impl Clicks {
    /// The egui context the app draws into.
    pub fn ctx(&self) -> &egui::Context {
        &self.ctx
    }
}

/// Gives `app` (a headless app before its first update) a primary egui context and the app's UI
/// systems; [`frame`] then runs one frame of both.
pub fn install(app: &mut App) {
    app.init_resource::<EguiUserTextures>();
    sandtable_app::ui::plugin(app);
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let entity = app
        .world_mut()
        .spawn((EguiContext::default(), PrimaryEguiContext))
        .id();
    *app.world_mut()
        .get_mut::<EguiContext>(entity)
        .unwrap()
        .get_mut() = ctx.clone();
    app.insert_resource(Clicks {
        ctx,
        events: Vec::new(),
        widgets: Vec::new(),
        time: 0.0,
    });
}

/// One frame: the app's update, then an egui pass with the queued events through the app's UI
/// systems, whose widgets are read back from the accessibility tree.
pub fn frame(app: &mut App) {
    app.update();
    let mut clicks = app.world().resource::<Clicks>().clone();
    clicks.time += 1.0 / 30.0;
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SCREEN)),
        time: Some(clicks.time),
        events: std::mem::take(&mut clicks.events),
        ..Default::default()
    };
    clicks.ctx.begin_pass(input);
    app.world_mut().run_schedule(EguiPrimaryContextPass);
    let mut out = clicks.ctx.end_pass();
    // No renderer: the font atlas is never uploaded.
    out.textures_delta.clear();
    clicks.widgets = out
        .platform_output
        .accesskit_update
        .map(widgets)
        .unwrap_or_default();
    app.insert_resource(clicks);
}

fn widgets(update: TreeUpdate) -> Vec<Widget> {
    let mut out = Vec::new();
    let labels: std::collections::HashMap<NodeId, String> = update
        .nodes
        .iter()
        .filter_map(|(id, n)| n.label().map(|l| (*id, l.to_string())))
        .collect();
    let mut parent = std::collections::HashMap::new();
    for (id, n) in &update.nodes {
        for c in n.children() {
            parent.insert(*c, *id);
        }
    }
    let node_of: std::collections::HashMap<NodeId, &egui::accesskit::Node> =
        update.nodes.iter().map(|(id, n)| (*id, n)).collect();
    let window_of = |mut id: NodeId| {
        while let Some(p) = parent.get(&id) {
            if let Some(n) = node_of.get(p)
                && n.role() == Role::Window
            {
                return n.label().map(str::to_string);
            }
            id = *p;
        }
        None
    };
    for (id, node) in &update.nodes {
        let Some(b) = node.bounds() else { continue };
        // A widget's name is its own label, or the text of the label node it is labelled by.
        let label = node.label().map(str::to_string).or_else(|| {
            node.labelled_by()
                .iter()
                .find_map(|id| labels.get(id).cloned())
        });
        // A label, a text field or a combo box has no name of its own, only its text.
        let Some(label) = label
            .filter(|l| !l.is_empty())
            .or_else(|| node.value().map(str::to_string))
        else {
            continue;
        };
        out.push(Widget {
            role: node.role(),
            label,
            value: node.value().map(str::to_string),
            rect: egui::Rect::from_min_max(
                egui::pos2(b.x0 as f32, b.y0 as f32),
                egui::pos2(b.x1 as f32, b.y1 as f32),
            ),
            toggled: node.toggled().map(|t| t == egui::accesskit::Toggled::True),
            disabled: node.is_disabled(),
            window: window_of(*id),
            node: *id,
        });
    }
    out
}

/// Runs `n` frames.
pub fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        frame(app);
    }
}

/// The widgets of the last frame whose name contains `text`.
pub fn find(app: &App, text: &str) -> Vec<Widget> {
    app.world()
        .resource::<Clicks>()
        .widgets
        .iter()
        .filter(|w| w.label.contains(text))
        .cloned()
        .collect()
}

/// The widgets one can act on (not plain text) of the last frame inside the egui window named
/// `window` whose name is `text`.
pub fn find_in(app: &App, window: &str, text: &str) -> Vec<Widget> {
    find(app, text)
        .into_iter()
        .filter(|w| w.label == text && w.window.as_deref() == Some(window))
        .filter(|w| !matches!(w.role, Role::Label | Role::TextRun))
        .collect()
}

/// Clicks the `nth` enabled widget (in reading order) named `text` in the egui window `window`.
pub fn click_in(app: &mut App, window: &str, text: &str, nth: usize) {
    let mut all: Vec<_> = find_in(app, window, text)
        .into_iter()
        .filter(|w| !w.disabled)
        .collect();
    all.sort_by(|a, b| {
        (a.rect.min.y, a.rect.min.x)
            .partial_cmp(&(b.rect.min.y, b.rect.min.x))
            .unwrap()
    });
    let w = all.get(nth).cloned().unwrap_or_else(|| {
        panic!(
            "no enabled widget {nth} named {text:?} in {window:?}: {:#?}",
            names(app)
        )
    });
    click_widget(app, &w);
}

/// The widgets of the last frame with `role` inside the egui window `window`.
pub fn with_role(app: &App, window: &str, role: Role) -> Vec<Widget> {
    app.world()
        .resource::<Clicks>()
        .widgets
        .iter()
        .filter(|w| w.role == role && w.window.as_deref() == Some(window))
        .cloned()
        .collect()
}

/// Every name on screen, for a failing test's message.
pub fn names(app: &App) -> Vec<String> {
    app.world()
        .resource::<Clicks>()
        .widgets
        .iter()
        .map(|w| format!("{:?} {:?}", w.role, w.label))
        .collect()
}

fn push(app: &mut App, e: egui::Event) {
    app.world_mut().resource_mut::<Clicks>().events.push(e);
}

/// Moves the pointer to `at`, presses and releases the left button there, a frame each, as a
/// window reports a click.
pub fn click_pos(app: &mut App, at: egui::Pos2) {
    push(app, egui::Event::PointerMoved(at));
    frame(app);
    for pressed in [true, false] {
        push(
            app,
            egui::Event::PointerButton {
                pos: at,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            },
        );
        frame(app);
    }
    // Two more, so that what the click opened has been laid out (a new window's first pass
    // only measures it) and is on screen.
    frames(app, 2);
}

/// Clicks `w` as a player would: scrolled into view first (a list's button may sit below its
/// scroll area's edge, where a click would land on something else), then a pointer click at its
/// centre.
pub fn click_widget(app: &mut App, w: &Widget) {
    push(
        app,
        egui::Event::AccessKitActionRequest(egui::accesskit::ActionRequest {
            action: egui::accesskit::Action::ScrollIntoView,
            target_tree: egui::accesskit::TreeId::ROOT,
            target_node: w.node,
            data: None,
        }),
    );
    frames(app, 2);
    let now = app
        .world()
        .resource::<Clicks>()
        .widgets
        .iter()
        .find(|x| x.node == w.node)
        .cloned()
        .unwrap_or_else(|| panic!("{:?} went away when scrolled to", w.label));
    click_pos(app, now.rect.center());
}

/// Clicks the first enabled widget of the last frame named exactly `text` (or, if none is,
/// containing it); panics with what is on screen when there is none.
pub fn click(app: &mut App, text: &str) {
    let w = {
        let all = find(app, text);
        let exact = all.iter().find(|w| w.label == text && !w.disabled).cloned();
        exact
            .or_else(|| all.into_iter().find(|w| !w.disabled))
            .unwrap_or_else(|| {
                panic!(
                    "no enabled widget named {text:?} on screen: {:#?}",
                    names(app)
                )
            })
    };
    click_widget(app, &w);
}

/// Clicks the entry named `text` of the list a combo box has popped up, on its visible part
/// (egui clips a long list to its scroll area, as a person sees it).
pub fn click_listed(app: &mut App, text: &str) {
    let item = app
        .world()
        .resource::<Clicks>()
        .widgets
        .iter()
        .find(|w| w.window.is_none() && w.role == Role::Button && w.label == text)
        .cloned()
        .unwrap_or_else(|| panic!("{text:?} is not in the list: {:#?}", names(app)));
    let ctx = app.world().resource::<Clicks>().ctx.clone();
    let visible = |ctx: &egui::Context| {
        ctx.read_response(id_of(&item))
            .map(|r| r.interact_rect)
            .filter(|r| r.height() >= 4.0 && r.width() >= 4.0)
    };
    if visible(&ctx).is_none() {
        // Out of view: have the list scrolled to it, as a person would scroll.
        push(
            app,
            egui::Event::AccessKitActionRequest(egui::accesskit::ActionRequest {
                action: egui::accesskit::Action::ScrollIntoView,
                target_tree: egui::accesskit::TreeId::ROOT,
                target_node: item.node,
                data: None,
            }),
        );
        frames(app, 2);
    }
    let at = visible(&ctx).unwrap_or_else(|| panic!("{text:?} is listed but out of view"));
    click_pos(app, at.center());
}

fn id_of(w: &Widget) -> egui::Id {
    // SAFETY: the value is an egui Id's own, read back from the tree it wrote.
    unsafe { egui::Id::from_high_entropy_bits(w.node.0) }
}

/// Types `text` into the widget with keyboard focus.
pub fn type_text(app: &mut App, text: &str) {
    push(app, egui::Event::Text(text.to_string()));
    frame(app);
}

/// Presses and releases `key` (e.g. selecting all of a text field's text with Ctrl held).
pub fn press(app: &mut App, key: egui::Key, modifiers: egui::Modifiers) {
    for pressed in [true, false] {
        push(
            app,
            egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers,
            },
        );
    }
    frame(app);
}
