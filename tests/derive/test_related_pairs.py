"""Related papers as a reader judges them, on the bundled catalog (76 papers of ICLR and
ICML 2024): pairs picked by reading the papers, not by running the code.

``MUST_RELATE``: the second paper is about what the first is about, and belongs among the
first three papers shown under it. ``MUST_NOT_LEAD``: the second paper has little to do
with the first (most share one word, used in another sense) and must not be the first
shown under it. Every pair says why.

The lists are computed as the site computes them, from each paper's plain title and
abstract and its tags (``related_indices(texts, tags=...)``).
"""

from __future__ import annotations

import pytest

from generator.derive.related import related_indices

MUST_RELATE = [
    ("privacy-amplification-for-matrix-mechanisms",
     "correlated-noise-provably-beats-independent-noise-for-differentially-private",
     "both analyse the correlated noise of the matrix mechanism in differentially private training (DP-SGD, DP-FTRL)"),
    ("correlated-noise-provably-beats-independent-noise-for-differentially-private",
     "privacy-amplification-for-matrix-mechanisms", "the same pair, seen from the other side"),
    ("learning-to-design-protein-protein-interactions-with-enhanced-generalization",
     "learning-to-predict-mutational-effects-of-protein-protein-interactions-by",
     "both predict how mutations change protein-protein binding, with pre-trained models"),
    ("learning-to-predict-mutational-effects-of-protein-protein-interactions-by",
     "learning-to-design-protein-protein-interactions-with-enhanced-generalization", "the same pair, reversed"),
    ("salmon-self-alignment-with-instructable-reward-models",
     "rlcd-reinforcement-learning-from-contrastive-distillation-for-lm-alignment",
     "both align a language model to written principles without human preference labels"),
    ("rlcd-reinforcement-learning-from-contrastive-distillation-for-lm-alignment",
     "salmon-self-alignment-with-instructable-reward-models", "the same pair, reversed"),
    ("statistical-rejection-sampling-improves-preference-optimization",
     "rlcd-reinforcement-learning-from-contrastive-distillation-for-lm-alignment",
     "both are about the preference pairs a language model is aligned with"),
    ("score-regularized-policy-optimization-through-diffusion-behavior",
     "consistency-models-as-a-rich-and-efficient-policy-class-for-reinforcement",
     "both make diffusion-model policies for offline RL fast enough to act with"),
    ("consistency-models-as-a-rich-and-efficient-policy-class-for-reinforcement",
     "score-regularized-policy-optimization-through-diffusion-behavior", "the same pair, reversed"),
    ("constrained-bi-level-optimization-proximal-lagrangian-value-function-approach",
     "leveraging-augmented-lagrangian-techniques-for-differentiating-over-infeasible",
     "Lagrangian methods for constrained optimisation problems nested in learning"),
    ("sept-towards-efficient-scene-representation-learning-for-motion-prediction",
     "trajeglish-traffic-modeling-as-next-token-prediction",
     "both model how road users move in driving scenes (motion prediction, traffic simulation)"),
    ("trajeglish-traffic-modeling-as-next-token-prediction",
     "sept-towards-efficient-scene-representation-learning-for-motion-prediction", "the same pair, reversed"),
    ("llms-meet-vlms-boost-open-vocabulary-object-detection-with-fine-grained",
     "negative-label-guided-ood-detection-with-pretrained-vision-language-models",
     "both build detectors on the text side of pretrained vision-language models"),
    ("negative-label-guided-ood-detection-with-pretrained-vision-language-models",
     "llms-meet-vlms-boost-open-vocabulary-object-detection-with-fine-grained", "the same pair, reversed"),
    ("geodiffusion-text-prompted-geometric-control-for-object-detection-data",
     "llms-meet-vlms-boost-open-vocabulary-object-detection-with-fine-grained",
     "both exist to train better object detectors"),
    ("federated-recommendation-with-additive-personalization",
     "bayesian-coreset-optimization-for-personalized-federated-learning",
     "personalised federated learning, both"),
    ("bayesian-coreset-optimization-for-personalized-federated-learning",
     "federated-recommendation-with-additive-personalization", "the same pair, reversed"),
    ("deep-neural-network-initialization-with-sparsity-inducing-activations",
     "towards-training-without-depth-limits-batch-normalization-without-gradient",
     "both study signal propagation in deep networks at initialisation (mean-field, exploding gradients)"),
    ("towards-training-without-depth-limits-batch-normalization-without-gradient",
     "deep-neural-network-initialization-with-sparsity-inducing-activations", "the same pair, reversed"),
    ("sleb-streamlining-llms-through-redundancy-verification-and-elimination-of",
     "sparse-weight-averaging-with-multiple-particles-for-iterative-magnitude-pruning",
     "both prune networks (transformer blocks, weights by magnitude)"),
    ("sparse-weight-averaging-with-multiple-particles-for-iterative-magnitude-pruning",
     "sleb-streamlining-llms-through-redundancy-verification-and-elimination-of", "the same pair, reversed"),
    ("automatikz-text-guided-synthesis-of-scientific-vector-graphics-with-tikz",
     "scenecraft-an-llm-agent-for-synthesizing-3d-scene-as-blender-code",
     "both have a language model write the code of a picture (TikZ, Blender)"),
    ("scenecraft-an-llm-agent-for-synthesizing-3d-scene-as-blender-code",
     "automatikz-text-guided-synthesis-of-scientific-vector-graphics-with-tikz", "the same pair, reversed"),
    ("on-universally-optimal-algorithms-for-a-b-testing",
     "to-deal-with-changing-environments-adaptive-regret-has-been-proposed",
     "bandits and online learning: the only other paper on sequential decisions with regret"),
    ("lets-verify-step-by-step",
     "peering-through-preferences-unraveling-feedback-acquisition-for-aligning-large",
     "both compare kinds of human feedback for training language models"),
    ("causal-iqa-towards-the-generalization-of-image-quality-assessment-based-on",
     "towards-characterizing-domain-counterfactuals-for-invertible-latent-causal",
     "causal models and counterfactuals for images, both"),
    ("navigating-complexity-toward-lossless-graph-condensation-via-expanding-window",
     "towards-robust-fidelity-for-evaluating-explainability-of-graph-neural-networks",
     "both are about graph neural networks (GNNs) and what they are trained or judged on"),
    ("stochastic-gradient-descent-for-gaussian-processes-done-right",
     "latent-variable-model-for-high-dimensional-point-process-with-structured",
     "both are built on Gaussian processes: the phrase, not the words 'Gaussian' and 'process' apart"),
]

# The paper on exposure bias in diffusion models must be shown diffusion models first.
DIFFUSION = {
    "diffusion-model-for-dense-matching",
    "geodiffusion-text-prompted-geometric-control-for-object-detection-data",
    "symbolic-music-generation-with-non-differentiable-rule-guided-diffusion",
    "score-regularized-policy-optimization-through-diffusion-behavior",
    "consistency-models-as-a-rich-and-efficient-policy-class-for-reinforcement",
    "on-mechanistic-knowledge-localization-in-text-to-image-generative-models",
}

MUST_NOT_LEAD = [
    ("elucidating-the-exposure-bias-in-diffusion-models",
     "feature-importance-disparities-for-data-bias-investigations",
     "exposure bias (training vs sampling) and data bias (unfair classifiers) share a word, not a topic"),
    ("feature-importance-disparities-for-data-bias-investigations",
     "elucidating-the-exposure-bias-in-diffusion-models", "the same pair, reversed"),
    ("lets-verify-step-by-step",
     "navigating-complexity-toward-lossless-graph-condensation-via-expanding-window",
     "process supervision of reasoning has nothing to do with condensing graphs ('supervision signals')"),
    ("navigating-complexity-toward-lossless-graph-condensation-via-expanding-window",
     "lets-verify-step-by-step", "the same pair, reversed"),
    ("diffusion-model-for-dense-matching",
     "correlated-noise-provably-beats-independent-noise-for-differentially-private",
     "image matching with diffusion vs privacy noise: 'noise' in two senses"),
    ("inherent-trade-offs-between-diversity-and-stability-in-multi-task-benchmarks",
     "privacy-amplification-for-matrix-mechanisms",
     "benchmarks as voting systems vs differential privacy ('mechanisms')"),
    ("groot-learning-to-follow-instructions-by-watching-gameplay-videos",
     "towards-3d-molecule-text-interpretation-in-language-models",
     "a game agent vs molecules, met only in 'instruction following'"),
    ("towards-3d-molecule-text-interpretation-in-language-models",
     "groot-learning-to-follow-instructions-by-watching-gameplay-videos", "the same pair, reversed"),
    ("bridging-neural-and-symbolic-representations-with-transitional-dictionary",
     "symbolic-music-generation-with-non-differentiable-rule-guided-diffusion",
     "symbolic knowledge vs symbolic (written) music: one word, two meanings"),
    ("symbolic-music-generation-with-non-differentiable-rule-guided-diffusion",
     "bridging-neural-and-symbolic-representations-with-transitional-dictionary", "the same pair, reversed"),
    ("tell-your-model-where-to-attend-post-hoc-attention-steering-for-llms",
     "negative-label-guided-ood-detection-with-pretrained-vision-language-models",
     "steering an LLM's attention vs out-of-distribution detection ('post hoc')"),
    ("faster-sampling-from-log-concave-densities-over-polytopes-via-efficient-linear",
     "how-to-capture-higher-order-correlations-generalizing-matrix-softmax-attention",
     "sampling from polytopes vs attention's complexity: both multiply matrices, nothing more"),
    ("an-unforgeable-publicly-verifiable-watermark-for-large-language-models",
     "sleb-streamlining-llms-through-redundancy-verification-and-elimination-of",
     "watermarking LLM text vs pruning LLM blocks ('verification' in two senses)"),
    ("navigating-dataset-documentations-in-ai-a-large-scale-analysis-of-dataset-cards",
     "peering-through-preferences-unraveling-feedback-acquisition-for-aligning-large",
     "documentation of datasets vs feedback for alignment"),
]


@pytest.fixture(scope="module")
def shown(bundled_views) -> dict[str, list[str]]:
    """slug -> the slugs of its related papers, in order, as the site computes them."""
    papers = bundled_views().papers
    found = related_indices([(p.title_plain, p.abstract_plain) for p in papers], tags=[p.paper.tags for p in papers])
    return {p.slug: [papers[j].slug for j in js] for p, js in zip(papers, found)}


@pytest.mark.parametrize(("paper", "other", "why"), MUST_RELATE, ids=[f"{a[:24]}>{b[:24]}" for a, b, _ in MUST_RELATE])
def test_papers_on_one_topic_are_among_the_first_three(shown, paper, other, why):
    assert other in shown[paper][:3], f"{why}: {shown[paper]}"


@pytest.mark.parametrize(("paper", "other", "why"), MUST_NOT_LEAD, ids=[f"{a[:24]}>{b[:24]}" for a, b, _ in MUST_NOT_LEAD])
def test_a_paper_sharing_only_a_word_is_not_shown_first(shown, paper, other, why):
    assert shown[paper][:1] != [other], f"{why}: {shown[paper]}"


def test_exposure_bias_in_diffusion_models_leads_with_diffusion_models(shown):
    assert set(shown["elucidating-the-exposure-bias-in-diffusion-models"][:3]) <= DIFFUSION


def test_the_pairs_name_papers_of_the_catalog(shown):
    named = {slug for pair in MUST_RELATE + MUST_NOT_LEAD for slug in pair[:2]} | DIFFUSION
    assert named <= shown.keys()
    assert len(MUST_RELATE) >= 8 and len(MUST_NOT_LEAD) >= 8


def test_the_site_shows_these_lists(bundled_views, shown):
    site = bundled_views()
    assert {slug: [p.slug for p in papers] for slug, papers in site.related.items()} == shown
