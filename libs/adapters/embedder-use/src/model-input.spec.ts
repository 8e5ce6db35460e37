import { expect } from 'chai';
import { MAX_INPUT_CHARS, MODEL_MAX_TOKENS, modelInput } from './model-input.js';

describe('modelInput', () => {
  it('leaves texts up to MAX_INPUT_CHARS alone', () => {
    expect(modelInput('')).to.equal('');
    const text = 'a'.repeat(MAX_INPUT_CHARS);
    expect(modelInput(text)).to.equal(text);
  });

  it('cuts a longer text at the last space in range, past what 128 tokens can cover', () => {
    const text = 'abcdefg '.repeat(1000);
    const cut = modelInput(text);
    expect(text.startsWith(cut)).to.equal(true);
    expect(cut.length).to.be.at.most(MAX_INPUT_CHARS);
    expect(cut.length).to.be.at.least(MODEL_MAX_TOKENS * 16);
    expect(text[cut.length]).to.equal(' ');
  });

  it('cuts a text without spaces at MAX_INPUT_CHARS, never inside a surrogate pair', () => {
    expect(modelInput('x'.repeat(3 * MAX_INPUT_CHARS))).to.have.length(MAX_INPUT_CHARS);
    const emoji = '😀'.repeat(MAX_INPUT_CHARS);
    const cut = modelInput('y' + emoji);
    expect(cut.length).to.equal(MAX_INPUT_CHARS - 1);
    expect(cut.endsWith('😀')).to.equal(true);
  });
});
