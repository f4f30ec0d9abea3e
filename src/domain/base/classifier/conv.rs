//! A small convolution over the tokens of an input, in order: the second method beside the
//! linear model over bags of n-grams. Each token is a learned vector (its hash bucket's row,
//! plus a vector for the field it stands in); filters three tokens wide slide over the
//! sequence, each keeps its strongest match anywhere in it, and a linear layer over those
//! matches scores the classes. A filter can learn "a request word, then a pointer, then the
//! end" wherever it stands and whatever words the rows of similar tokens were trained
//! towards, which a bag of n-grams cannot.
//!
//! Training is plain AdaGrad in a fixed order from a seeded generator, in arithmetic that gives
//! the same bytes on every machine; the weights file holds every tensor in 16 bits.

use super::features::{each_token_in_order, Field};
use super::linear::{bucket, softmax, Input, Prediction};

/// The width of a token's vector.
pub const DIM: usize = 16;
/// How many filters read the sequence.
pub const FILTERS: usize = 48;
/// How many tokens a filter reads at once.
pub const WIDTH: usize = 3;
/// Fields a token can stand in (`Field` as an index).
const FIELDS: usize = 7;
/// At most this many tokens of an input are read: the first ones.
const LONGEST: usize = 160;

const MAGIC: &[u8; 4] = b"OCMC";
const VERSION: u8 = 1;
const HEADER: usize = 8;

/// One token of a sequence: its row and the field it stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    row: u32,
    field: u8,
}

/// The tokens of `input` in order: each text's field mark, then its tokens (masked as the
/// input reads them), then each named feature as a token of its own.
pub fn sequence(input: &Input, bits: u32) -> Vec<Token> {
    let mut out = Vec::new();
    for (field, text) in &input.texts {
        let field_index = *field as u8;
        out.push(Token {
            row: bucket(*field, b'm', &[], bits) as u32,
            field: field_index,
        });
        each_token_in_order(text, input.known, |token| {
            out.push(Token {
                row: bucket(Field::Whole, b't', &[token], bits) as u32,
                field: field_index,
            })
        });
    }
    for name in &input.named {
        out.push(Token {
            row: bucket(Field::Named, b'n', &[name], bits) as u32,
            field: Field::Named as u8,
        });
    }
    out.truncate(LONGEST);
    out
}

/// The parameters, as floats while training.
#[derive(Debug, Clone)]
struct Params {
    classes: usize,
    bits: u32,
    rows: Vec<f32>,
    fields: Vec<f32>,
    filters: Vec<f32>,
    filter_bias: Vec<f32>,
    out: Vec<f32>,
    out_bias: Vec<f32>,
}

/// What a forward pass leaves for the backward one.
struct Pass {
    scores: Vec<f64>,
    pooled: Vec<f32>,
    /// Where each filter matched best (its window's first position in the padded sequence).
    at: Vec<usize>,
    /// The padded sequence's vectors, `DIM` each.
    vectors: Vec<f32>,
}

/// The weights of one convolution, read in place from the bytes that hold them: each tensor is
/// a scale and one 16-bit weight per entry, in the order of `Params::tensors`.
#[derive(Debug, Clone, Copy)]
pub struct ConvWeights {
    bytes: &'static [u8],
    classes: usize,
    bits: u32,
    /// Where each tensor's weights start, and its scale.
    tensors: [(usize, f32); 6],
}

impl Params {
    /// The number of entries of each tensor, in the order of `tensors`.
    fn zero_lengths(classes: usize, bits: u32) -> [usize; 6] {
        [
            (1usize << bits) * DIM,
            FIELDS * DIM,
            FILTERS * WIDTH * DIM,
            FILTERS,
            classes * FILTERS,
            classes,
        ]
    }

    fn zero(classes: usize, bits: u32) -> Params {
        let [rows, fields, filters, filter_bias, out, out_bias] =
            Params::zero_lengths(classes, bits);
        Params {
            classes,
            bits,
            rows: vec![0.0; rows],
            fields: vec![0.0; fields],
            filters: vec![0.0; filters],
            filter_bias: vec![0.0; filter_bias],
            out: vec![0.0; out],
            out_bias: vec![0.0; out_bias],
        }
    }

    fn tensors(&self) -> [&Vec<f32>; 6] {
        [
            &self.rows,
            &self.fields,
            &self.filters,
            &self.filter_bias,
            &self.out,
            &self.out_bias,
        ]
    }

    fn tensors_mut(&mut self) -> [&mut Vec<f32>; 6] {
        [
            &mut self.rows,
            &mut self.fields,
            &mut self.filters,
            &mut self.filter_bias,
            &mut self.out,
            &mut self.out_bias,
        ]
    }

    fn forward(&self, tokens: &[Token]) -> Pass {
        // One padding position on each side, so that a filter reads the first and last tokens
        // at every place of its window; an empty input reads padding only.
        let positions = tokens.len() + 2;
        let mut vectors = vec![0.0f32; positions * DIM];
        for (i, token) in tokens.iter().enumerate() {
            let row = &self.rows[token.row as usize * DIM..][..DIM];
            let field = &self.fields[usize::from(token.field) * DIM..][..DIM];
            let v = &mut vectors[(i + 1) * DIM..][..DIM];
            for d in 0..DIM {
                v[d] = row[d] + field[d];
            }
        }
        let (pooled, at) = pool(&self.filters, &self.filter_bias, &vectors);
        let scores = (0..self.classes)
            .map(|c| {
                let mut s = self.out_bias[c];
                for (w, p) in self.out[c * FILTERS..][..FILTERS].iter().zip(&pooled) {
                    s += w * p;
                }
                f64::from(s)
            })
            .collect();
        Pass {
            scores,
            pooled,
            at,
            vectors,
        }
    }
}

impl ConvWeights {
    /// The weights in `bytes`, or why they are not weights of a convolution for `classes`.
    pub fn parse(bytes: &'static [u8], classes: usize) -> Result<ConvWeights, String> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC || bytes[4] != VERSION {
            return Err("not a convolution's weights file of this version".into());
        }
        let (count, bits) = (usize::from(bytes[5]), u32::from(bytes[6]));
        if count != classes || !(8..=20).contains(&bits) {
            return Err(format!("{count} classes and {bits} bits"));
        }
        let lengths = Params::zero_lengths(classes, bits);
        let mut tensors = [(0, 0.0); 6];
        let mut at = HEADER;
        for (tensor, length) in tensors.iter_mut().zip(lengths) {
            let need = 4 + 2 * length;
            if bytes.len() < at + need {
                return Err("the file ends early".into());
            }
            let scale =
                f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            if !scale.is_finite() {
                return Err("a scale is not a number".into());
            }
            *tensor = (at + 4, scale);
            at += need;
        }
        if at != bytes.len() {
            return Err(format!("{} bytes where {at} were expected", bytes.len()));
        }
        Ok(ConvWeights {
            bytes,
            classes,
            bits,
            tensors,
        })
    }

    /// The weights of a compiled-in file, which a test parses: a bad file fails the build's tests.
    pub fn compiled(bytes: &'static [u8], classes: usize) -> ConvWeights {
        match ConvWeights::parse(bytes, classes) {
            Ok(weights) => weights,
            Err(why) => panic!("compiled-in weights: {why}"),
        }
    }

    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Entry `i` of tensor `tensor` (in the order of `Params::tensors`).
    fn value(&self, tensor: usize, i: usize) -> f32 {
        let (start, scale) = self.tensors[tensor];
        let at = start + 2 * i;
        f32::from(i16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])) * scale
    }

    /// What the weights conclude about `input`.
    pub fn predict(&self, input: &Input) -> Prediction {
        self.predict_tokens(&sequence(input, self.bits))
    }

    pub fn predict_tokens(&self, tokens: &[Token]) -> Prediction {
        self.reader().predict_tokens(tokens)
    }

    /// A reader of many inputs with these weights.
    pub fn reader(&self) -> OrderReader<'_> {
        let filters: Vec<f32> = (0..FILTERS * WIDTH * DIM)
            .map(|i| self.value(2, i))
            .collect();
        let fields = (0..FIELDS)
            .flat_map(|field| {
                let vector: Vec<f32> = (0..DIM).map(|d| self.value(1, field * DIM + d)).collect();
                products(&filters, &vector)
            })
            .collect();
        OrderReader {
            weights: self,
            filters,
            fields,
            rows: std::collections::HashMap::new(),
        }
    }
}

/// Reads inputs with one convolution's weights, each token row's products with the filters
/// computed once: the proposals of one sentence share most of their tokens, and a window's
/// match is then the sum of its tokens' products, `WIDTH` additions a filter.
pub struct OrderReader<'w> {
    weights: &'w ConvWeights,
    filters: Vec<f32>,
    /// Each field's vector's products, `FILTERS * WIDTH` a field.
    fields: Vec<f32>,
    rows: std::collections::HashMap<u32, Vec<f32>>,
}

/// The products of `vector` with each filter at each place of its window, `FILTERS * WIDTH`:
/// what the token adds to a window where it stands at that place.
fn products(filters: &[f32], vector: &[f32]) -> Vec<f32> {
    filters
        .chunks_exact(DIM)
        .map(|w| w.iter().zip(vector).map(|(w, x)| w * x).sum())
        .collect()
}

impl OrderReader<'_> {
    pub fn predict(&mut self, input: &Input) -> Prediction {
        self.predict_tokens(&sequence(input, self.weights.bits))
    }

    fn predict_tokens(&mut self, tokens: &[Token]) -> Prediction {
        let weights = self.weights;
        let mut at = Vec::with_capacity(tokens.len());
        for token in tokens {
            let filters = &self.filters;
            self.rows.entry(token.row).or_insert_with(|| {
                let vector: Vec<f32> = (0..DIM)
                    .map(|d| weights.value(0, token.row as usize * DIM + d))
                    .collect();
                products(filters, &vector)
            });
            at.push(token);
        }
        // The padded sequence: a place before the first token and after the last, adding nothing.
        let width = FILTERS * WIDTH;
        let mut places = vec![0.0f32; (tokens.len() + 2) * width];
        for (i, token) in at.iter().enumerate() {
            let row = &self.rows[&token.row];
            let field = &self.fields[usize::from(token.field) * width..][..width];
            for (j, place) in places[(i + 1) * width..][..width].iter_mut().enumerate() {
                *place = row[j] + field[j];
            }
        }
        let windows = tokens.len() + 3 - WIDTH;
        let mut pooled = [0.0f32; FILTERS];
        for (f, pool) in pooled.iter_mut().enumerate() {
            let mut best = f32::NEG_INFINITY;
            for start in 0..windows {
                let mut a = weights.value(3, f);
                for k in 0..WIDTH {
                    a += places[(start + k) * width + f * WIDTH + k];
                }
                best = best.max(a);
            }
            *pool = best.max(0.0);
        }
        let scores: Vec<f64> = (0..weights.classes)
            .map(|c| {
                let mut s = weights.value(5, c);
                for (f, p) in pooled.iter().enumerate() {
                    s += weights.value(4, c * FILTERS + f) * p;
                }
                f64::from(s)
            })
            .collect();
        Prediction {
            probabilities: softmax(&scores),
        }
    }
}

/// Each filter's strongest match over the windows of `vectors` (a padded sequence, `DIM`
/// each), no less than zero, and the window where it was found.
///
/// The filters are read transposed, every filter's `k`-th weight side by side, so that one
/// window's matches with all filters are summed at once: each match is still its bias plus its
/// products in the order of the window, the same bytes as one filter at a time, but the sums
/// no longer wait on one another (training spends most of its time here).
fn pool(filters: &[f32], bias: &[f32], vectors: &[f32]) -> (Vec<f32>, Vec<usize>) {
    let windows = vectors.len() / DIM + 1 - WIDTH;
    let mut transposed = [0.0f32; WIDTH * DIM * FILTERS];
    for (f, weights) in filters.chunks_exact(WIDTH * DIM).enumerate() {
        for (k, &w) in weights.iter().enumerate() {
            transposed[k * FILTERS + f] = w;
        }
    }
    let mut best = [f32::NEG_INFINITY; FILTERS];
    let mut at = vec![0usize; FILTERS];
    for start in 0..windows {
        let window = &vectors[start * DIM..][..WIDTH * DIM];
        let mut sums = [0.0f32; FILTERS];
        sums.copy_from_slice(&bias[..FILTERS]);
        for (x, column) in window.iter().zip(transposed.chunks_exact(FILTERS)) {
            for (sum, w) in sums.iter_mut().zip(column) {
                *sum += w * x;
            }
        }
        for f in 0..FILTERS {
            if sums[f] > best[f] {
                best[f] = sums[f];
                at[f] = start;
            }
        }
    }
    (best.iter().map(|b| b.max(0.0)).collect(), at)
}

fn encode(params: &Params) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[VERSION, params.classes as u8, params.bits as u8, 0]);
    for tensor in params.tensors() {
        let top = tensor.iter().fold(0.0f32, |m, w| m.max(w.abs()));
        let scale = if top > 0.0 { top / 32767.0 } else { 1.0 };
        out.extend_from_slice(&scale.to_le_bytes());
        for w in tensor {
            let q = (w / scale).round().clamp(-32767.0, 32767.0) as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
    }
    out
}

/// One labelled sequence.
#[derive(Debug, Clone)]
pub struct ConvExample {
    pub tokens: Vec<Token>,
    pub class: usize,
    pub weight: f64,
}

impl ConvExample {
    pub fn new(input: &Input, bits: u32, class: usize, weight: f64) -> ConvExample {
        ConvExample {
            tokens: sequence(input, bits),
            class,
            weight,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct ConvOptions {
    pub classes: usize,
    pub bits: u32,
    pub epochs: usize,
    pub rate: f32,
    pub seed: u64,
}

/// A generator of the same numbers on every machine.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }
}

/// The weights file learned from `examples`.
pub fn train_conv(examples: &[ConvExample], options: ConvOptions) -> Vec<u8> {
    let mut random = XorShift(options.seed | 1);
    let mut params = Params::zero(options.classes, options.bits);
    // Small random starts break the symmetry between filters; rows start small so that an
    // unseen token adds little.
    for w in &mut params.rows {
        *w = 0.1 * random.unit();
    }
    for w in &mut params.filters {
        *w = 0.3 * random.unit();
    }
    for w in &mut params.out {
        *w = 0.3 * random.unit();
    }
    let mut squares = Params::zero(options.classes, options.bits);
    for tensor in squares.tensors_mut() {
        tensor.iter_mut().for_each(|g| *g = 1e-6);
    }
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut grads = Params::zero(options.classes, options.bits);
    for _ in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (random.next() % (i as u64 + 1)) as usize);
        }
        for &index in &order {
            let example = &examples[index];
            step(&mut params, &mut squares, &mut grads, example, options.rate);
        }
    }
    encode(&params)
}

/// One example's gradient, applied by AdaGrad to the parameters it touched.
// Each loop indexes several tensors by the same filter, class or dimension at once.
#[allow(clippy::needless_range_loop)]
fn step(
    params: &mut Params,
    squares: &mut Params,
    grads: &mut Params,
    example: &ConvExample,
    rate: f32,
) {
    let pass = params.forward(&example.tokens);
    let p = softmax(&pass.scores);
    let error: Vec<f32> = (0..params.classes)
        .map(|c| {
            let target = if c == example.class { 1.0 } else { 0.0 };
            ((p[c] - target) * example.weight) as f32
        })
        .collect();
    let mut d_vectors = vec![0.0f32; pass.vectors.len()];
    let mut d_pooled = [0.0f32; FILTERS];
    for c in 0..params.classes {
        grads.out_bias[c] = error[c];
        for f in 0..FILTERS {
            grads.out[c * FILTERS + f] = error[c] * pass.pooled[f];
            d_pooled[f] += error[c] * params.out[c * FILTERS + f];
        }
    }
    for f in 0..FILTERS {
        let d = if pass.pooled[f] > 0.0 {
            d_pooled[f]
        } else {
            0.0
        };
        grads.filter_bias[f] = d;
        let start = pass.at[f] * DIM;
        for k in 0..WIDTH * DIM {
            grads.filters[f * WIDTH * DIM + k] = d * pass.vectors[start + k];
            d_vectors[start + k] += d * params.filters[f * WIDTH * DIM + k];
        }
    }
    let adagrad = |w: &mut f32, g2: &mut f32, g: f32| {
        *g2 += g * g;
        *w -= rate * g / g2.sqrt();
    };
    for i in 0..params.out.len() {
        adagrad(&mut params.out[i], &mut squares.out[i], grads.out[i]);
    }
    for i in 0..params.out_bias.len() {
        adagrad(
            &mut params.out_bias[i],
            &mut squares.out_bias[i],
            grads.out_bias[i],
        );
    }
    for i in 0..params.filters.len() {
        adagrad(
            &mut params.filters[i],
            &mut squares.filters[i],
            grads.filters[i],
        );
    }
    for i in 0..FILTERS {
        adagrad(
            &mut params.filter_bias[i],
            &mut squares.filter_bias[i],
            grads.filter_bias[i],
        );
    }
    // A token met twice gets both gradients, summed, as one update.
    let mut rows: Vec<(u32, usize)> = example
        .tokens
        .iter()
        .enumerate()
        .map(|(i, t)| (t.row, i + 1))
        .collect();
    rows.sort_unstable();
    let mut i = 0;
    while i < rows.len() {
        let row = rows[i].0 as usize;
        let mut g = [0.0f32; DIM];
        while i < rows.len() && rows[i].0 as usize == row {
            let v = &d_vectors[rows[i].1 * DIM..][..DIM];
            for d in 0..DIM {
                g[d] += v[d];
            }
            i += 1;
        }
        for d in 0..DIM {
            let at = row * DIM + d;
            adagrad(&mut params.rows[at], &mut squares.rows[at], g[d]);
        }
    }
    let mut fields = [[0.0f32; DIM]; FIELDS];
    for (i, token) in example.tokens.iter().enumerate() {
        let v = &d_vectors[(i + 1) * DIM..][..DIM];
        for d in 0..DIM {
            fields[usize::from(token.field)][d] += v[d];
        }
    }
    for (f, g) in fields.iter().enumerate() {
        for d in 0..DIM {
            let at = f * DIM + d;
            adagrad(&mut params.fields[at], &mut squares.fields[at], g[d]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> Input<'_> {
        Input::default().text(Field::Whole, text)
    }

    /// `pool` as its definition reads: one filter at a time, each window's bias and products
    /// summed in order.
    fn pool_by_definition(
        filters: &[f32],
        bias: &[f32],
        vectors: &[f32],
    ) -> (Vec<f32>, Vec<usize>) {
        let windows = vectors.len() / DIM + 1 - WIDTH;
        let mut pooled = vec![0.0f32; FILTERS];
        let mut at = vec![0usize; FILTERS];
        for f in 0..FILTERS {
            let weights = &filters[f * WIDTH * DIM..][..WIDTH * DIM];
            let mut best = f32::NEG_INFINITY;
            for start in 0..windows {
                let mut a = bias[f];
                for (w, x) in weights.iter().zip(&vectors[start * DIM..][..WIDTH * DIM]) {
                    a += w * x;
                }
                if a > best {
                    best = a;
                    at[f] = start;
                }
            }
            pooled[f] = best.max(0.0);
        }
        (pooled, at)
    }

    #[test]
    fn pooling_all_filters_at_once_gives_the_bits_of_one_filter_at_a_time() {
        let mut random = XorShift(7);
        for positions in [2, 3, 4, 9, 40, 162] {
            let filters: Vec<f32> = (0..FILTERS * WIDTH * DIM).map(|_| random.unit()).collect();
            let bias: Vec<f32> = (0..FILTERS).map(|_| 0.1 * random.unit()).collect();
            let mut vectors: Vec<f32> = (0..positions * DIM).map(|_| random.unit()).collect();
            // Equal windows tie: the first must win in both.
            if positions > 4 {
                let (first, rest) = vectors.split_at_mut(3 * DIM);
                rest[..3 * DIM].copy_from_slice(first);
            }
            let fast = pool(&filters, &bias, &vectors);
            let plain = pool_by_definition(&filters, &bias, &vectors);
            assert_eq!(fast.1, plain.1, "{positions} positions");
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast.0), bits(&plain.0), "{positions} positions");
        }
    }

    #[test]
    fn it_learns_word_order_that_a_bag_of_words_cannot_see() {
        // The same words; only their order says which class.
        let mut examples = Vec::new();
        for (text, class) in [
            ("keep this in mind", 1),
            ("mind this keep in", 0),
            ("keep that in mind", 1),
            ("mind that keep in", 0),
            ("keep it in mind", 1),
            ("mind it keep in", 0),
        ] {
            examples.push(ConvExample::new(&input(text), 10, class, 1.0));
        }
        let options = ConvOptions {
            classes: 2,
            bits: 10,
            epochs: 60,
            rate: 0.1,
            seed: 11,
        };
        let bytes: &'static [u8] = Box::leak(train_conv(&examples, options).into_boxed_slice());
        let weights = ConvWeights::parse(bytes, 2).unwrap();
        assert!(weights.predict(&input("keep these in mind")).probability(1) > 0.5);
        // The weights as stored (16 bits) conclude what the weights as trained did.
        let mut params = Params::zero(2, 10);
        let mut random = XorShift(5);
        for tensor in params.tensors_mut() {
            tensor.iter_mut().for_each(|w| *w = random.unit());
        }
        let stored = ConvWeights::parse(Box::leak(encode(&params).into_boxed_slice()), 2).unwrap();
        let tokens = sequence(&input("keep that in mind"), 10);
        let trained = softmax(&params.forward(&tokens).scores)[1];
        let read = stored.predict_tokens(&tokens).probability(1);
        assert!((trained - read).abs() < 1e-3, "{trained} {read}");
        assert!(weights.predict(&input("mind these keep in")).probability(1) < 0.5);
        assert_eq!(train_conv(&examples, options), bytes);
    }

    #[test]
    fn a_reader_of_many_inputs_concludes_what_one_reading_each_does() {
        let mut params = Params::zero(2, 10);
        let mut random = XorShift(9);
        for tensor in params.tensors_mut() {
            tensor.iter_mut().for_each(|w| *w = random.unit());
        }
        let weights = ConvWeights::parse(Box::leak(encode(&params).into_boxed_slice()), 2).unwrap();
        let texts = [
            "remember: tabs",
            "tabs, remember that",
            "",
            "remember remember",
        ];
        let inputs: Vec<Input> = texts
            .iter()
            .map(|t| {
                Input::default()
                    .text(Field::Head, t)
                    .text(Field::Body, "tabs")
            })
            .collect();
        let mut reader = weights.reader();
        for input in &inputs {
            let shared = reader.predict(input).probability(1);
            let alone = weights.predict(input).probability(1);
            let trained = softmax(&params.forward(&sequence(input, 10)).scores)[1];
            assert_eq!(shared, alone);
            assert!((shared - trained).abs() < 1e-3, "{shared} {trained}");
        }
    }

    #[test]
    fn tokens_keep_their_order_their_field_and_the_marks() {
        let input = Input::default()
            .text(Field::Head, "Remember:")
            .text(Field::Body, "tabs")
            .named("rule:took");
        let tokens = sequence(&input, 12);
        let fields: Vec<u8> = tokens.iter().map(|t| t.field).collect();
        // Head: its mark, start, "remember", ":", end; body: its mark, start, "tabs", end; the named feature.
        assert_eq!(fields, [1, 1, 1, 1, 1, 2, 2, 2, 2, 4]);
        let reversed = sequence(&Input::default().text(Field::Head, ": remember"), 12);
        assert_ne!(tokens[..5], reversed[..]);
        let row = |text: &str| bucket(Field::Whole, b't', &[text], 12) as u32;
        assert_eq!(tokens[2].row, row("remember"));
        assert_eq!(tokens[3].row, row(":"));
        assert_eq!(tokens[7].row, row("tabs"));
        let long = "word ".repeat(400);
        assert_eq!(
            sequence(&Input::default().text(Field::Whole, &long), 12).len(),
            LONGEST
        );
    }

    #[test]
    fn a_file_of_the_wrong_shape_is_refused() {
        let leak = |bytes: Vec<u8>| -> &'static [u8] { Box::leak(bytes.into_boxed_slice()) };
        let good = encode(&Params::zero(2, 8));
        assert!(ConvWeights::parse(leak(good.clone()), 2).is_ok());
        assert!(ConvWeights::parse(leak(good.clone()), 3).is_err());
        assert!(ConvWeights::parse(leak(good[..good.len() - 1].to_vec()), 2).is_err());
        let mut longer = good.clone();
        longer.push(0);
        assert!(ConvWeights::parse(leak(longer), 2).is_err());
        let mut bad = good;
        bad[0] = b'X';
        assert!(ConvWeights::parse(leak(bad), 2).is_err());
    }
}
