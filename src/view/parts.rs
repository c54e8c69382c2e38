//! Which children of an element changed between two drawings of it, by
//! their markup: a step's part-by-part patch (`runtime::parts`) sends the
//! browser only the children that differ.

use std::collections::HashMap;

/// For each child, the index of the old child with the same markup
/// (the one at the same place first, else the first unused), or -1; and
/// the markup of the children with none, end to end.
pub fn plan<'a>(old: &[&'a str], children: &[&'a str]) -> (Vec<i32>, String) {
    let mut used = vec![false; old.len()];
    let mut at: Option<HashMap<&'a str, Vec<usize>>> = None;
    let mut keep = Vec::with_capacity(children.len());
    let mut fresh = String::new();
    for (j, child) in children.iter().enumerate() {
        if old.get(j) == Some(child) && !used[j] {
            used[j] = true;
            keep.push(j as i32);
            continue;
        }
        let at = at.get_or_insert_with(|| {
            let mut at: HashMap<&'a str, Vec<usize>> = HashMap::new();
            for (i, text) in old.iter().enumerate().rev() {
                at.entry(text).or_default().push(i);
            }
            at
        });
        let found = at.get_mut(child).and_then(|list| {
            while let Some(i) = list.pop() {
                if !used[i] {
                    return Some(i);
                }
            }
            None
        });
        match found {
            Some(i) => {
                used[i] = true;
                keep.push(i as i32);
            }
            None => {
                keep.push(-1);
                fresh.push_str(child);
            }
        }
    }
    (keep, fresh)
}

#[cfg(test)]
mod tests {
    use super::plan;

    #[test]
    fn a_child_as_drawn_is_kept_where_it_was_and_the_rest_are_sent() {
        let old = ["<a/>", "<b/>", "<c/>"];
        let (keep, fresh) = plan(&old, &["<a/>", "<x/>", "<c/>", "<b/>"]);
        assert_eq!(keep, vec![0, -1, 2, 1]);
        assert_eq!(fresh, "<x/>");
    }

    #[test]
    fn equal_children_are_each_kept_once() {
        let old = ["<a/>", "<a/>"];
        let (keep, fresh) = plan(&old, &["<b/>", "<a/>", "<a/>", "<a/>"]);
        assert_eq!(keep, vec![-1, 1, 0, -1]);
        assert_eq!(fresh, "<b/><a/>");
    }
}
