//! Training: multinomial logistic regression by AdaGrad over the examples in a fixed order
//! (shuffled by a seeded generator), in arithmetic that gives the same bytes on every machine.

use super::features::{FeatureSink, Field};
use super::linear::{bucket, exp, softmax, Input, Weights};

/// One labelled input, as hash buckets and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    features: Vec<(u32, f32)>,
    class: usize,
    /// How much the example counts (a rare class may count more).
    weight: f64,
}

struct Buckets {
    bits: u32,
    features: Vec<(u32, f32)>,
}

impl FeatureSink for Buckets {
    fn feature(&mut self, field: Field, kind: u8, parts: &[&str], value: f32) {
        let row = bucket(field, kind, parts, self.bits) as u32;
        self.features.push((row, value));
    }
}

impl Example {
    /// What `weights` conclude about this example's features.
    pub fn predict(&self, weights: &Weights) -> super::linear::Prediction {
        let bias = weights.bias_row();
        let mut scores: Vec<f64> = (0..weights.classes())
            .map(|c| weights.weight(bias, c))
            .collect();
        for &(row, value) in &self.features {
            for (class, score) in scores.iter_mut().enumerate() {
                *score += f64::from(value) * weights.weight(row as usize, class);
            }
        }
        super::linear::Prediction {
            probabilities: softmax(&scores),
        }
    }

    pub fn class(&self) -> usize {
        self.class
    }

    pub fn new(input: &Input, bits: u32, class: usize, weight: f64) -> Example {
        let mut buckets = Buckets {
            bits,
            features: Vec::new(),
        };
        input.each_feature(&mut buckets);
        Example {
            features: buckets.features,
            class,
            weight,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct TrainOptions {
    pub classes: usize,
    pub bits: u32,
    pub epochs: usize,
    pub rate: f64,
    /// L2 penalty on every weight, per example seen.
    pub l2: f64,
    pub seed: u64,
    /// Hold each class's bias at the log of its share of the examples instead of learning it:
    /// then a text whose features were never seen (a greeting no batch holds) gets the
    /// classes' prior, not whatever the bias drifted to while the features did the work.
    pub prior_bias: bool,
}

/// The weights file learned from `examples`.
pub fn train(examples: &[Example], options: TrainOptions) -> Vec<u8> {
    let k = options.classes;
    let rows = 1usize << options.bits;
    let mut w = vec![0.0f64; k * rows];
    let mut g2 = vec![1e-8f64; k * rows];
    let mut bias = vec![0.0f64; k];
    if options.prior_bias {
        let mut share = vec![1e-9f64; k];
        for example in examples {
            share[example.class] += example.weight;
        }
        let total: f64 = share.iter().sum();
        bias = share.iter().map(|s| ln(s / total)).collect();
    }
    let mut bias_g2 = vec![1e-8f64; k];
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut state = options.seed | 1;
    for _ in 0..options.epochs {
        shuffle(&mut order, &mut state);
        for &index in &order {
            let example = &examples[index];
            let mut scores = bias.clone();
            for &(row, value) in &example.features {
                for (class, score) in scores.iter_mut().enumerate() {
                    *score += f64::from(value) * w[row as usize * k + class];
                }
            }
            let p = softmax(&scores);
            for class in 0..k {
                let target = if class == example.class { 1.0 } else { 0.0 };
                let error = (p[class] - target) * example.weight;
                if !options.prior_bias {
                    bias_g2[class] += error * error;
                    bias[class] -= options.rate * error / bias_g2[class].sqrt();
                }
                for &(row, value) in &example.features {
                    let at = row as usize * k + class;
                    let grad = error * f64::from(value) + options.l2 * w[at];
                    g2[at] += grad * grad;
                    w[at] -= options.rate * grad / g2[at].sqrt();
                }
            }
        }
    }
    Weights::encode(k, options.bits, &w, &bias)
}

/// Fisher–Yates with xorshift64 from `state`: the order depends on the seed alone.
fn shuffle(order: &mut [usize], state: &mut u64) {
    for i in (1..order.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        order.swap(i, (*state % (i as u64 + 1)) as usize);
    }
}

/// The weights file of a ranking learned from `groups`: each group is the proposals of one
/// sentence, those of class 1 the right ones. The score of a proposal is its class-1 weights'
/// sum, read against the other proposals of its group (a softmax over the group), so that what
/// is learned is what sets the right proposal apart from its neighbours, not how often a
/// proposal of any sentence is right. Class 0 and the bias stay zero: a probability read
/// from these weights ranks, it does not say how likely a proposal is on its own.
pub fn train_ranking(groups: &[Vec<Example>], options: TrainOptions) -> Vec<u8> {
    let k = options.classes;
    let rows = 1usize << options.bits;
    let mut w = vec![0.0f64; k * rows];
    let mut g2 = vec![1e-8f64; k * rows];
    let mut order: Vec<usize> = (0..groups.len()).collect();
    let mut state = options.seed | 1;
    // Each group's gradient, summed per weight in the order its proposals give it; `touched`
    // lists the weights it reaches.
    let mut sums = vec![0.0f64; k * rows];
    let mut reached = vec![false; k * rows];
    let mut touched: Vec<usize> = Vec::new();
    for _ in 0..options.epochs {
        shuffle(&mut order, &mut state);
        for &index in &order {
            let group = &groups[index];
            if !group.iter().any(|e| e.class == 1) || group.iter().all(|e| e.class == 1) {
                continue;
            }
            let scores: Vec<f64> = group
                .iter()
                .map(|e| {
                    e.features
                        .iter()
                        .map(|&(row, value)| f64::from(value) * w[row as usize * k + 1])
                        .sum()
                })
                .collect();
            let p = softmax(&scores);
            let right: f64 = group
                .iter()
                .zip(&p)
                .filter(|(e, _)| e.class == 1)
                .map(|(_, p)| p)
                .sum();
            // The loss is minus the log of the right proposals' share: each proposal's error
            // is its share less what the right ones would hold of it.
            let errors: Vec<f64> = group
                .iter()
                .zip(&p)
                .map(|(e, &p)| {
                    let target = if e.class == 1 { p / right } else { 0.0 };
                    (p - target) * e.weight
                })
                .collect();
            // One step per feature of the group: a feature shared by every proposal (the
            // sentence's own words in each body) gets the sum of their errors, near zero.
            // Each weight's step reads and writes that weight alone, so the order of the steps
            // does not matter; the order of each sum's terms does, and is the proposals'.
            for (e, &error) in group.iter().zip(&errors) {
                for &(row, value) in &e.features {
                    let at = row as usize * k + 1;
                    if !reached[at] {
                        reached[at] = true;
                        touched.push(at);
                    }
                    sums[at] += error * f64::from(value);
                }
            }
            for at in touched.drain(..) {
                let grad = sums[at] + options.l2 * w[at];
                sums[at] = 0.0;
                reached[at] = false;
                g2[at] += grad * grad;
                w[at] -= options.rate * grad / g2[at].sqrt();
            }
        }
    }
    Weights::encode(k, options.bits, &w, &vec![0.0; k])
}

/// The natural logarithm of `x` > 0, from arithmetic alone (as `linear::exp`) so that the
/// weights are the same bytes on every machine: Newton's method on `exp`.
fn ln(x: f64) -> f64 {
    let mut y = 0.0;
    for _ in 0..100 {
        let e = exp(y);
        let next = y - 2.0 * (e - x) / (e + x);
        if (next - y).abs() < 1e-15 {
            return next;
        }
        y = next;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> TrainOptions {
        TrainOptions {
            classes: 2,
            bits: 10,
            epochs: 20,
            rate: 0.5,
            l2: 1e-6,
            seed: 7,
            prior_bias: false,
        }
    }

    #[test]
    fn it_learns_a_word_and_generalises_to_its_misspelling() {
        let yes = [
            "please remember that we use tabs",
            "remember: deploys on friday",
            "remember the port is 8080",
        ];
        let no = [
            "please fix the login bug",
            "what is the port",
            "run the tests now",
        ];
        let mut examples = Vec::new();
        for (texts, class) in [(yes, 1), (no, 0)] {
            for text in texts {
                examples.push(Example::new(
                    &Input::default().text(Field::Whole, text),
                    10,
                    class,
                    1.0,
                ));
            }
        }
        let bytes: &'static [u8] = Box::leak(train(&examples, options()).into_boxed_slice());
        let weights = Weights::parse(bytes, 2).unwrap();
        let p = |text| {
            weights
                .predict(&Input::default().text(Field::Whole, text))
                .probability(1)
        };
        assert!(p("remeber: the api is versioned") > 0.5);
        assert!(p("fix the api") < 0.5);
        // The same examples give the same bytes.
        assert_eq!(train(&examples, options()), bytes);
    }

    #[test]
    fn a_prior_bias_gives_an_unseen_text_the_classes_shares() {
        // One example of class 1 against three of class 0: a text with no feature met in
        // training gets odds near 1 in 4 with the prior bias.
        let mut examples = Vec::new();
        for (text, class) in [("alpha", 1), ("beta", 0), ("gamma", 0), ("delta", 0)] {
            examples.push(Example::new(
                &Input::default().text(Field::Whole, text),
                10,
                class,
                1.0,
            ));
        }
        let options = TrainOptions {
            prior_bias: true,
            ..options()
        };
        let bytes: &'static [u8] = Box::leak(train(&examples, options).into_boxed_slice());
        let weights = Weights::parse(bytes, 2).unwrap();
        let unseen = weights.predict(&Input::default()).probability(1);
        assert!((unseen - 0.25).abs() < 0.01, "{unseen}");
        let seen = weights
            .predict(&Input::default().text(Field::Whole, "alpha"))
            .probability(1);
        assert!(seen > 0.5, "{seen}");
    }

    /// The proposals of one sentence: each leaves out `head` before its memory `body`.
    fn group(proposals: &[(&str, &str)], right: usize) -> Vec<Example> {
        proposals
            .iter()
            .enumerate()
            .map(|(i, (head, body))| {
                let input = Input::default()
                    .text(Field::Head, head)
                    .text(Field::Body, body);
                Example::new(&input, 10, usize::from(i == right), 1.0)
            })
            .collect()
    }

    #[test]
    fn a_ranking_learns_what_sets_the_right_proposal_apart_from_its_neighbours() {
        // Each sentence's right proposal leaves "remember" out; in every sentence most
        // proposals hold a word of the memory in the head, so a pointwise reading would learn
        // that a head is wrong, and the ranking learns which head is right.
        let groups = vec![
            group(
                &[
                    ("", "remember tabs"),
                    ("remember", "tabs"),
                    ("remember tabs", ""),
                ],
                1,
            ),
            group(
                &[
                    ("", "remember port 80"),
                    ("remember", "port 80"),
                    ("remember port", "80"),
                ],
                1,
            ),
            group(
                &[
                    ("", "remember yarn only"),
                    ("remember", "yarn only"),
                    ("remember yarn", "only"),
                ],
                1,
            ),
            // No right proposal, and only right ones: nothing to learn from either.
            group(&[("", "remember tabs")], 9),
            vec![Example::new(
                &Input::default().text(Field::Head, "tabs"),
                10,
                1,
                1.0,
            )],
        ];
        let bytes: &'static [u8] = Box::leak(train_ranking(&groups, options()).into_boxed_slice());
        let weights = Weights::parse(bytes, 2).unwrap();
        let score = |head, body| {
            weights
                .predict(
                    &Input::default()
                        .text(Field::Head, head)
                        .text(Field::Body, body),
                )
                .probability(1)
        };
        // An unseen sentence: the proposal without the trigger ranks first.
        let (whole, cut, deep) = (
            score("", "remember the cache dir"),
            score("remember", "the cache dir"),
            score("remember the cache", "dir"),
        );
        assert!(cut > whole && cut > deep, "{whole} {cut} {deep}");
        // Class 0 and the bias are not learned: an empty input is at even odds.
        assert_eq!(weights.predict(&Input::default()).probability(1), 0.5);
        assert_eq!(train_ranking(&groups, options()), bytes);
        // Groups with nothing to tell apart teach nothing.
        let idle = train_ranking(&groups[3..], options());
        let idle = Weights::parse(Box::leak(idle.into_boxed_slice()), 2).unwrap();
        for input in [
            Input::default().text(Field::Head, "tabs"),
            Input::default()
                .text(Field::Head, "")
                .text(Field::Body, "remember tabs"),
        ] {
            assert_eq!(idle.predict(&input).probability(1), 0.5);
        }
    }

    #[test]
    fn a_ranking_step_follows_the_gradient_of_the_right_proposals_share() {
        // One sentence: the right proposal holds feature a, the wrong one b and c. Two passes
        // by hand: scores, softmax, errors (share less the right ones' part of it), an L2 term,
        // AdaGrad.
        let input = |names: &[&'static str]| {
            names
                .iter()
                .fold(Input::default(), |input, name| input.named(name))
        };
        let groups = vec![vec![
            Example::new(&input(&["a"]), 10, 1, 1.0),
            Example::new(&input(&["b", "c"]), 10, 0, 1.0),
        ]];
        let options = TrainOptions {
            epochs: 2,
            rate: 0.5,
            l2: 0.1,
            ..options()
        };
        let (mut a, mut bc, mut g2a, mut g2bc) = (0.0f64, 0.0f64, 1e-8f64, 1e-8f64);
        for _ in 0..2 {
            let p = 1.0 / (1.0 + (2.0 * bc - a).exp());
            let (grad_a, grad_bc) = (p - 1.0 + 0.1 * a, 1.0 - p + 0.1 * bc);
            g2a += grad_a * grad_a;
            g2bc += grad_bc * grad_bc;
            a -= 0.5 * grad_a / g2a.sqrt();
            bc -= 0.5 * grad_bc / g2bc.sqrt();
        }
        let bytes: &'static [u8] = Box::leak(train_ranking(&groups, options).into_boxed_slice());
        let weights = Weights::parse(bytes, 2).unwrap();
        let logit = |names: &[&'static str]| {
            let p = weights.predict(&input(names)).probability(1);
            (p / (1.0 - p)).ln()
        };
        assert!((logit(&["a"]) - a).abs() < 1e-3, "{} {a}", logit(&["a"]));
        assert!((logit(&["b"]) - bc).abs() < 1e-3, "{} {bc}", logit(&["b"]));
        assert!((logit(&["b", "c"]) - 2.0 * bc).abs() < 2e-3);
    }

    #[test]
    fn a_ranking_step_weighs_each_feature_by_its_value() {
        // As above, with features whose values are not 1 (text grams are weighed by how many
        // a field holds): the right proposal holds a at 0.5, the wrong one b at 2.
        let example = |name: &'static str, value: f32, class: usize| {
            let mut example = Example::new(&Input::default().named(name), 10, class, 1.0);
            assert_eq!(example.features.len(), 1);
            example.features[0].1 = value;
            example
        };
        let groups = vec![vec![example("a", 0.5, 1), example("b", 2.0, 0)]];
        let options = TrainOptions {
            epochs: 2,
            rate: 0.5,
            l2: 0.1,
            ..options()
        };
        let (mut a, mut b, mut g2a, mut g2b) = (0.0f64, 0.0f64, 1e-8f64, 1e-8f64);
        for _ in 0..2 {
            let p = 1.0 / (1.0 + (2.0 * b - 0.5 * a).exp());
            let (grad_a, grad_b) = ((p - 1.0) * 0.5 + 0.1 * a, (1.0 - p) * 2.0 + 0.1 * b);
            g2a += grad_a * grad_a;
            g2b += grad_b * grad_b;
            a -= 0.5 * grad_a / g2a.sqrt();
            b -= 0.5 * grad_b / g2b.sqrt();
        }
        let bytes: &'static [u8] = Box::leak(train_ranking(&groups, options).into_boxed_slice());
        let weights = Weights::parse(bytes, 2).unwrap();
        let logit = |name: &'static str| {
            let p = weights
                .predict(&Input::default().named(name))
                .probability(1);
            (p / (1.0 - p)).ln()
        };
        assert!((logit("a") - a).abs() < 1e-3, "{} {a}", logit("a"));
        assert!((logit("b") - b).abs() < 1e-3, "{} {b}", logit("b"));
    }

    #[test]
    fn ln_undoes_exp() {
        for x in [0.001, 0.25, 1.0, 2.0, 1000.0] {
            assert!((exp(ln(x)) - x).abs() < 1e-9 * x.max(1.0), "{x}");
        }
        assert!(ln(1.0).abs() < 1e-12);
    }
}
