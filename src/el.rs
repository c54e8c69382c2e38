//! Element builders for the request editor's views. `html!` expands every
//! element in place; these build elements in one place from data (tag,
//! attribute names, values, children), which keeps the editor inside the
//! page's size budget. Values and text are always text, never markup.

use std::rc::Rc;

use yew::virtual_dom::{AttributeOrProperty, Attributes, VNode, VTag, VText};
use yew::{AttrValue, Html};

/// `<tag keys[i]="values[i]"…>children</tag>`. An empty value leaves its
/// attribute out; on an `<input>`, `value` and `checked` ("true") set its
/// live state rather than its attribute.
#[inline(never)]
pub fn el(
    tag: &'static str,
    keys: &'static [&'static str],
    values: &[&str],
    children: Vec<Html>,
) -> Html {
    let mut node = VTag::new(tag);
    let values = keys
        .iter()
        .zip(values)
        .map(|(key, value)| match *key {
            "value" if tag == "input" => {
                node.set_value(AttrValue::from(value.to_string()));
                None
            }
            "checked" if tag == "input" => {
                node.set_checked(*value == "true");
                None
            }
            _ if value.is_empty() => None,
            _ => Some(AttributeOrProperty::Attribute(AttrValue::from(
                value.to_string(),
            ))),
        })
        .collect();
    node.set_attributes(Attributes::Dynamic { keys, values });
    node.add_children(children);
    VNode::VTag(Rc::new(node))
}

/// A text node.
pub fn text(s: impl Into<AttrValue>) -> Html {
    VNode::VText(VText::new(s))
}

/// `<button type="button" class data-act data-arg data-testid>label</button>`.
pub fn button(class: &str, act: &str, arg: &str, testid: &str, label: &str) -> Html {
    el(
        "button",
        &["type", "class", "data-act", "data-arg", "data-testid"],
        &["button", class, act, arg, testid],
        vec![text(label.to_string())],
    )
}
