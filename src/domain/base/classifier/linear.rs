//! The weights of one decision and what they conclude about a text. A weights file is a
//! header (`OCML`, version, number of classes, hash bits), a scale, then one 16-bit weight per
//! class for the bias and for every hash bucket, little-endian. `Weights::parse` only checks
//! the header: the bytes are read in place where the binary holds them.

use super::features::{each_feature_known, FeatureSink, Field, Known};

const MAGIC: &[u8; 4] = b"OCML";
const VERSION: u8 = 1;
const HEADER: usize = 12;

/// One decision's weights, borrowed from the bytes that hold them.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    bytes: &'static [u8],
    classes: usize,
    bits: u32,
    scale: f32,
}

/// The bucket a feature falls into: FNV-1a over its field, kind and parts.
pub(super) fn bucket(field: Field, kind: u8, parts: &[&str], bits: u32) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |byte: u8| {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    eat(field as u8);
    eat(kind);
    for part in parts {
        eat(0x1f);
        part.bytes().for_each(&mut eat);
    }
    ((hash ^ (hash >> 32)) & ((1u64 << bits) - 1)) as usize
}

/// `e^x`, from arithmetic alone so that training gives the same weights on every machine.
pub(super) fn exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = x - k * std::f64::consts::LN_2;
    // Taylor series of e^r for |r| <= ln 2 / 2, to double precision.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=16 {
        term *= r / f64::from(n);
        sum += term;
    }
    sum * f64::powi(2.0, k as i32)
}

/// The probability of each class from its score.
pub(super) fn softmax(scores: &[f64]) -> Vec<f64> {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| exp(s - top)).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

/// What the weights concluded: each class's probability, in the order of the classes.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    pub probabilities: Vec<f64>,
}

impl Prediction {
    /// The most likely class.
    pub fn best(&self) -> usize {
        let mut best = 0;
        for (class, p) in self.probabilities.iter().enumerate() {
            if *p > self.probabilities[best] {
                best = class;
            }
        }
        best
    }

    pub fn probability(&self, class: usize) -> f64 {
        self.probabilities[class]
    }
}

/// One feature's weight towards a class, named for `ocmem explain`.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    pub feature: String,
    pub weight: f64,
}

/// Adds each feature's weighted value to every class's score.
struct Scorer<'a> {
    weights: &'a Weights,
    scores: Vec<f64>,
    /// When explaining: each feature's name and its weight towards `towards`.
    named: Option<(usize, Vec<Contribution>)>,
}

impl FeatureSink for Scorer<'_> {
    fn feature(&mut self, field: Field, kind: u8, parts: &[&str], value: f32) {
        let row = bucket(field, kind, parts, self.weights.bits);
        for class in 0..self.weights.classes {
            self.scores[class] += f64::from(value) * self.weights.weight(row, class);
        }
        if let Some((towards, named)) = &mut self.named {
            let mut weight = f64::from(value) * self.weights.weight(row, *towards);
            // Towards a class against the others' mean, so a feature that favours every class
            // alike weighs nothing.
            let others = self.weights.classes - 1;
            if others > 0 {
                let rest: f64 = (0..self.weights.classes)
                    .filter(|c| c != towards)
                    .map(|c| self.weights.weight(row, c))
                    .sum();
                weight -= f64::from(value) * rest / others as f64;
            }
            named.push(Contribution {
                feature: format!("{}:{}:{}", field.label(), kind as char, parts.join(" ")),
                weight,
            });
        }
    }
}

/// The input of one decision: texts in fields, and named features.
#[derive(Debug, Clone, Default)]
pub struct Input<'a> {
    pub texts: Vec<(Field, &'a str)>,
    pub named: Vec<&'a str>,
    /// The words the texts are read by, when only some are (see `features::Known`).
    pub known: Option<Known>,
}

impl<'a> Input<'a> {
    pub fn text(mut self, field: Field, text: &'a str) -> Self {
        self.texts.push((field, text));
        self
    }

    /// Reads the texts by the words `known` accepts only.
    pub fn masked(mut self, known: Known) -> Self {
        self.known = Some(known);
        self
    }

    pub fn named(mut self, name: &'a str) -> Self {
        self.named.push(name);
        self
    }

    pub fn named_if(self, yes: bool, name: &'a str) -> Self {
        if yes {
            self.named(name)
        } else {
            self
        }
    }

    /// Calls `sink` with every feature of the input.
    pub fn each_feature(&self, sink: &mut impl FeatureSink) {
        for (field, text) in &self.texts {
            each_feature_known(text, *field, self.known, sink);
        }
        for name in &self.named {
            sink.feature(Field::Named, b'n', &[name], 1.0);
        }
    }
}

impl Weights {
    /// The weights in `bytes`, or why they are not weights for `classes` classes.
    pub fn parse(bytes: &'static [u8], classes: usize) -> Result<Weights, String> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC || bytes[4] != VERSION {
            return Err("not a weights file of this version".into());
        }
        let (count, bits) = (usize::from(bytes[5]), u32::from(bytes[6]));
        if count != classes || !(8..=20).contains(&bits) {
            return Err(format!("{count} classes and {bits} bits"));
        }
        let scale = f32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        let expected = HEADER + 2 * classes * ((1usize << bits) + 1);
        if bytes.len() != expected || !scale.is_finite() {
            return Err(format!(
                "{} bytes where {expected} were expected",
                bytes.len()
            ));
        }
        Ok(Weights {
            bytes,
            classes,
            bits,
            scale,
        })
    }

    /// The weights of a compiled-in file, which a test parses: a bad file fails the build's tests.
    pub fn compiled(bytes: &'static [u8], classes: usize) -> Weights {
        match Weights::parse(bytes, classes) {
            Ok(weights) => weights,
            Err(why) => panic!("compiled-in weights: {why}"),
        }
    }

    pub fn classes(&self) -> usize {
        self.classes
    }

    /// The weight of hash bucket `row` (the bias is row `2^bits`) for `class`.
    pub(super) fn weight(&self, row: usize, class: usize) -> f64 {
        let at = HEADER + 2 * (row * self.classes + class);
        f64::from(i16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])) * f64::from(self.scale)
    }

    pub(super) fn bias_row(&self) -> usize {
        1 << self.bits
    }

    /// What the weights conclude about `input`.
    pub fn predict(&self, input: &Input) -> Prediction {
        let mut scorer = self.scorer(None);
        input.each_feature(&mut scorer);
        Prediction {
            probabilities: softmax(&scorer.scores),
        }
    }

    /// `predict`, with the `top` features that weighed most for or against `towards`.
    pub fn explain(
        &self,
        input: &Input,
        towards: usize,
        top: usize,
    ) -> (Prediction, Vec<Contribution>) {
        let mut scorer = self.scorer(Some(towards));
        input.each_feature(&mut scorer);
        let prediction = Prediction {
            probabilities: softmax(&scorer.scores),
        };
        let mut named = scorer.named.map(|(_, named)| named).unwrap_or_default();
        // One line per feature name: a gram met twice weighs twice.
        named.sort_by(|a, b| a.feature.cmp(&b.feature));
        named.dedup_by(|next, kept| {
            let same = next.feature == kept.feature;
            if same {
                kept.weight += next.weight;
            }
            same
        });
        named.sort_by(|a, b| b.weight.abs().total_cmp(&a.weight.abs()));
        named.truncate(top);
        (prediction, named)
    }

    fn scorer(&self, towards: Option<usize>) -> Scorer<'_> {
        let bias = self.bias_row();
        Scorer {
            weights: self,
            scores: (0..self.classes).map(|c| self.weight(bias, c)).collect(),
            named: towards.map(|t| (t, Vec::new())),
        }
    }

    /// The bytes of a weights file: `bias` and `rows` (one weight per class each) as floats,
    /// scaled to 16 bits.
    pub fn encode(classes: usize, bits: u32, rows: &[f64], bias: &[f64]) -> Vec<u8> {
        assert_eq!(rows.len(), classes << bits);
        assert_eq!(bias.len(), classes);
        let top = rows.iter().chain(bias).fold(0.0f64, |m, w| m.max(w.abs()));
        let scale = if top > 0.0 {
            (top / 32767.0) as f32
        } else {
            1.0
        };
        let mut out = Vec::with_capacity(HEADER + 2 * (rows.len() + classes));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[VERSION, classes as u8, bits as u8, 0]);
        out.extend_from_slice(&scale.to_le_bytes());
        for w in rows.iter().chain(bias) {
            let q = (w / f64::from(scale)).round().clamp(-32767.0, 32767.0) as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leak(bytes: Vec<u8>) -> &'static [u8] {
        Box::leak(bytes.into_boxed_slice())
    }

    #[test]
    fn exp_matches_the_library_closely() {
        for x in [-30.0, -2.5, -0.1, 0.0, 0.3, 1.0, 7.7, 40.0] {
            let (ours, std) = (exp(x), f64::exp(x));
            assert!(((ours - std) / std).abs() < 1e-12, "{x}: {ours} vs {std}");
        }
    }

    #[test]
    fn a_weight_on_a_named_feature_decides() {
        let bits = 8;
        let mut rows = vec![0.0; 2 << bits];
        let row = bucket(Field::Named, b'n', &["yes"], bits);
        rows[row * 2 + 1] = 4.0;
        let weights =
            Weights::parse(leak(Weights::encode(2, bits, &rows, &[0.5, 0.0])), 2).unwrap();
        let yes = weights.predict(&Input::default().named("yes"));
        let no = weights.predict(&Input::default().named("no"));
        assert_eq!((yes.best(), no.best()), (1, 0));
        assert!((yes.probability(1) - 1.0 / (1.0 + exp(-3.5))).abs() < 1e-3);
        let (_, why) = weights.explain(&Input::default().named("yes"), 1, 3);
        assert_eq!(why[0].feature, "named:n:yes");
        assert!((why[0].weight - 4.0).abs() < 1e-3, "{why:?}");
    }

    #[test]
    fn a_file_of_the_wrong_shape_is_refused() {
        let good = Weights::encode(2, 8, &vec![0.0; 512], &[0.0, 0.0]);
        assert!(Weights::parse(leak(good.clone()), 2).is_ok());
        assert!(Weights::parse(leak(good.clone()), 3).is_err());
        assert!(Weights::parse(leak(good[..good.len() - 1].to_vec()), 2).is_err());
        let mut bad = good;
        bad[0] = b'X';
        assert!(Weights::parse(leak(bad), 2).is_err());
    }
}
