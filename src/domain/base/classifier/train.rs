//! Training: multinomial logistic regression by AdaGrad over the examples in a fixed order
//! (shuffled by a seeded generator), in arithmetic that gives the same bytes on every machine.

use super::features::{FeatureSink, Field};
use super::linear::{bucket, softmax, Input, Weights};

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
}

/// The weights file learned from `examples`.
pub fn train(examples: &[Example], options: TrainOptions) -> Vec<u8> {
    let k = options.classes;
    let rows = 1usize << options.bits;
    let mut w = vec![0.0f64; k * rows];
    let mut g2 = vec![1e-8f64; k * rows];
    let mut bias = vec![0.0f64; k];
    let mut bias_g2 = vec![1e-8f64; k];
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut state = options.seed | 1;
    for _ in 0..options.epochs {
        // Fisher–Yates with xorshift64: the order depends on the seed alone.
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
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
                bias_g2[class] += error * error;
                bias[class] -= options.rate * error / bias_g2[class].sqrt();
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
}
