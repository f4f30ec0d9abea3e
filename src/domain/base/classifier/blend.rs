//! One decision read two ways: by its bag of n-grams (`Weights`) and by a convolution over its
//! words in order (`ConvWeights`). Each sees what the other misses (on the development split
//! the two together rank requests better than either alone), so their probabilities are
//! combined as the mean of their log-odds: neither overrules a confident other.

use super::conv::ConvWeights;
use super::linear::{softmax, Contribution, Input, Prediction, Weights};

/// A decision's weights: its bag of n-grams, and the convolution when it has one.
#[derive(Debug, Clone, Copy)]
pub struct Blend {
    pub bag: Weights,
    pub order: Option<ConvWeights>,
}

impl Blend {
    /// A decision read by its bag of n-grams alone.
    pub fn bag(bag: Weights) -> Blend {
        Blend { bag, order: None }
    }

    /// What both readings conclude about `input`.
    pub fn predict(&self, input: &Input) -> Prediction {
        match &self.order {
            Some(order) => combine(&self.bag.predict(input), &order.predict(input)),
            None => self.bag.predict(input),
        }
    }

    /// `predict` of each of `inputs`: the convolution computes each token's products once for
    /// all of them (the proposals of a sentence share most of their tokens).
    pub fn predict_all<'a, 'b: 'a>(
        &self,
        inputs: impl Iterator<Item = &'a Input<'b>>,
    ) -> Vec<Prediction> {
        match &self.order {
            Some(order) => {
                let mut reader = order.reader();
                inputs
                    .map(|input| combine(&self.bag.predict(input), &reader.predict(input)))
                    .collect()
            }
            None => inputs.map(|input| self.bag.predict(input)).collect(),
        }
    }

    /// `predict`, with the bag's `top` features towards `towards` and, first, what the
    /// reading in order added to them (`order:in order`, half its log-odds towards that class).
    pub fn explain(
        &self,
        input: &Input,
        towards: usize,
        top: usize,
    ) -> (Prediction, Vec<Contribution>) {
        let (bag, mut why) = self.bag.explain(input, towards, top);
        let Some(order) = &self.order else {
            return (bag, why);
        };
        let order = order.predict(input);
        let p = order.probability(towards).clamp(1e-9, 1.0 - 1e-9);
        why.insert(
            0,
            Contribution {
                feature: "order:in order".to_owned(),
                weight: (p / (1.0 - p)).ln() / 2.0,
            },
        );
        (combine(&bag, &order), why)
    }
}

/// The classes' probabilities from the mean of the two readings' log-probabilities.
fn combine(bag: &Prediction, order: &Prediction) -> Prediction {
    let scores: Vec<f64> = bag
        .probabilities
        .iter()
        .zip(&order.probabilities)
        .map(|(a, b)| (a.max(1e-12).ln() + b.max(1e-12).ln()) / 2.0)
        .collect();
    Prediction {
        probabilities: softmax(&scores),
    }
}

#[cfg(test)]
mod tests {
    use super::super::conv::{train_conv, ConvExample, ConvOptions};
    use super::super::features::Field;
    use super::*;

    fn leak(bytes: Vec<u8>) -> &'static [u8] {
        Box::leak(bytes.into_boxed_slice())
    }

    /// A bag that knows one named feature, and a convolution trained on two sentences.
    fn blend() -> Blend {
        let bits = 8;
        let mut rows = vec![0.0; 2 << bits];
        let row = super::super::linear::bucket(Field::Named, b'n', &["yes"], bits);
        rows[row * 2 + 1] = 2.0;
        let bag = Weights::parse(leak(Weights::encode(2, bits, &rows, &[0.0, 0.0])), 2).unwrap();
        let examples: Vec<ConvExample> = [("keep this in mind", 1), ("mind this keep in", 0)]
            .into_iter()
            .map(|(text, class)| {
                ConvExample::new(&Input::default().text(Field::Whole, text), 10, class, 1.0)
            })
            .collect();
        let options = ConvOptions {
            classes: 2,
            bits: 10,
            epochs: 30,
            rate: 0.1,
            seed: 3,
        };
        let order = ConvWeights::parse(leak(train_conv(&examples, options)), 2).unwrap();
        Blend {
            bag,
            order: Some(order),
        }
    }

    #[test]
    fn both_readings_decide_and_explain_says_what_the_order_added() {
        let blend = blend();
        let order = blend.order.unwrap();
        let input = Input::default()
            .text(Field::Whole, "keep this in mind")
            .named("yes");
        let (bag_p, order_p) = (
            blend.bag.predict(&input).probability(1),
            order.predict(&input).probability(1),
        );
        let logit = |p: f64| (p / (1.0 - p)).ln();
        let both = blend.predict(&input).probability(1);
        let expected = 1.0 / (1.0 + (-(logit(bag_p) + logit(order_p)) / 2.0).exp());
        assert!((both - expected).abs() < 1e-9, "{both} {expected}");
        let (explained, why) = blend.explain(&input, 1, 3);
        assert_eq!(explained, blend.predict(&input));
        assert_eq!(why[0].feature, "order:in order");
        assert!(
            (why[0].weight - logit(order_p) / 2.0).abs() < 1e-6,
            "{why:?}"
        );
        // Towards the other class, the order's share turns round.
        let (_, against) = blend.explain(&input, 0, 3);
        assert!(
            (against[0].weight + why[0].weight).abs() < 1e-6,
            "{against:?}"
        );
        // Without a convolution, the bag alone.
        let bag = Blend::bag(blend.bag);
        assert_eq!(bag.predict(&input), blend.bag.predict(&input));
        assert_eq!(bag.explain(&input, 1, 3), blend.bag.explain(&input, 1, 3));
    }

    #[test]
    fn reading_many_inputs_concludes_what_reading_each_does() {
        let blend = blend();
        let inputs: Vec<Input> = ["keep this in mind", "mind this keep in", ""]
            .iter()
            .map(|t| Input::default().text(Field::Whole, t))
            .collect();
        let each: Vec<Prediction> = inputs.iter().map(|i| blend.predict(i)).collect();
        assert_eq!(blend.predict_all(inputs.iter()), each);
        let bag = Blend::bag(blend.bag);
        let alone: Vec<Prediction> = inputs.iter().map(|i| bag.predict(i)).collect();
        assert_eq!(bag.predict_all(inputs.iter()), alone);
    }

    #[test]
    fn the_mean_of_log_odds_sits_between_the_two_readings() {
        let p = |yes: f64| Prediction {
            probabilities: vec![1.0 - yes, yes],
        };
        let both = combine(&p(0.9), &p(0.5)).probability(1);
        // Log-odds 2.197 and 0 average to 1.099: odds of 3 to 1.
        assert!((both - 0.75).abs() < 1e-9, "{both}");
        assert!((combine(&p(0.2), &p(0.2)).probability(1) - 0.2).abs() < 1e-9);
        let against = combine(&p(0.99), &p(0.01)).probability(1);
        assert!((against - 0.5).abs() < 1e-9, "{against}");
    }
}
