import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { onnxModel } from './model-catalog.js';
import { modelFiles, requireModelFiles, resolveModelDir } from './model-files.js';
import {
  createWordPieceTokenizer,
  normalizeBertText,
  parseTokenizerJson,
  splitBertWords,
  wordPieces,
  type WordPieceTokenizer,
} from './wordpiece-tokenizer.js';

const bert = { cleanText: true, handleChineseChars: true, stripAccents: true, lowercase: true };

describe('wordpiece tokenizer: pure steps', () => {
  it('normalises like BertNormalizer: controls dropped, whitespace unified, accents stripped, lowercased', () => {
    expect(normalizeBertText('Crème\u00a0BRÛLÉE\u200b\u0007\ttoo', bert)).to.equal('creme brulee too');
    expect(normalizeBertText('Crème', { ...bert, stripAccents: false })).to.equal('crème');
    expect(normalizeBertText('a\u0000b\ufffdc', bert)).to.equal('abc');
  });

  it('lowercases per character, so a final capital sigma stays σ as in tokenizers', () => {
    expect(normalizeBertText('ΟΔΟΣ', { ...bert, stripAccents: false })).to.equal('οδοσ');
  });

  it('spaces out CJK ideographs but not kana', () => {
    expect(splitBertWords(normalizeBertText('世界こんにちは', bert))).to.deep.equal(['世', '界', 'こんにちは']);
  });

  it('makes every punctuation character a word, including ASCII symbols that Unicode calls symbols', () => {
    expect(splitBertWords("it's $5.00 <b>a|b</b> ~x «quoted»")).to.deep.equal([
      'it', "'", 's', '$', '5', '.', '00', '<', 'b', '>', 'a', '|', 'b', '<', '/', 'b', '>', '~', 'x', '«', 'quoted', '»',
    ]);
  });

  it('splits a word greedily, longest piece first, and gives up on the whole word when a rest cannot match', () => {
    const config = {
      vocab: new Map([['un', 0], ['##aff', 1], ['##able', 2], ['##a', 3], ['[UNK]', 4]]),
      unkToken: '[UNK]',
      continuingSubwordPrefix: '##',
      maxInputCharsPerWord: 10,
    };
    expect(wordPieces('unaffable', config)).to.deep.equal(['un', '##aff', '##able']);
    expect(wordPieces('unaffablez', config)).to.deep.equal(['[UNK]']);
    expect(wordPieces('unaffableaa', config)).to.deep.equal(['[UNK]'], 'longer than maxInputCharsPerWord');
  });

  it('refuses a vocabulary without its special tokens', () => {
    const build = () =>
      createWordPieceTokenizer({
        vocab: new Map([['[UNK]', 0]]),
        unkToken: '[UNK]',
        clsToken: '[CLS]',
        sepToken: '[SEP]',
        continuingSubwordPrefix: '##',
        maxInputCharsPerWord: 100,
        normalizer: bert,
      });
    expect(build).to.throw(/\[CLS\]/);
  });

  it('refuses tokenizer.json files of another kind', () => {
    expect(() => parseTokenizerJson({ model: { type: 'BPE', vocab: {} } })).to.throw(/only BERT WordPiece/);
  });
});

describe('wordpiece tokenizer: bge-small-en-v1.5 vocabulary', () => {
  let tokenizer: WordPieceTokenizer;
  const id = (token: string) => {
    const value = tokenizer.idOf(token);
    expect(value, `vocab has ${token}`).to.be.a('number');
    return value as number;
  };

  before(() => {
    requireModelFiles(resolveModelDir(onnxModel()), onnxModel());
    tokenizer = parseTokenizerJson(readFileSync(modelFiles(resolveModelDir(onnxModel())).tokenizer, 'utf8'));
  });

  it('wraps words in [CLS] and [SEP]', () => {
    expect(tokenizer.encode('Hello world')).to.deep.equal([101, 7592, 2088, 102]);
    expect([id('[CLS]'), id('hello'), id('world'), id('[SEP]')]).to.deep.equal([101, 7592, 2088, 102]);
    expect(tokenizer.encode('')).to.deep.equal([101, 102]);
  });

  it('splits an unknown word into ## continuation pieces', () => {
    expect(tokenizer.tokenize('unaffable')).to.deep.equal(['una', '##ffa', '##ble']);
    expect(tokenizer.encode('unaffable')).to.deep.equal([101, id('una'), id('##ffa'), id('##ble'), 102]);
  });

  it('separates punctuation and strips accents', () => {
    expect(tokenizer.tokenize("Naïve café, isn't it?")).to.deep.equal(['naive', 'cafe', ',', 'isn', "'", 't', 'it', '?']);
  });

  it('maps ideographs missing from the vocabulary to [UNK] one character at a time', () => {
    expect(tokenizer.tokenize('世界')).to.deep.equal(['世', '[UNK]']);
    expect(tokenizer.encode('世界')).to.deep.equal([101, id('世'), id('[UNK]'), 102]);
  });

  it('maps an over-long word to a single [UNK]', () => {
    expect(tokenizer.tokenize(`a ${'x'.repeat(101)} b`)).to.deep.equal(['a', '[UNK]', 'b']);
  });

  it('truncates to 512 ids, keeping [SEP] last', () => {
    const ids = tokenizer.encode('word '.repeat(2000));
    expect(ids).to.have.length(512);
    expect(ids[0]).to.equal(101);
    expect(ids[511]).to.equal(102);
    expect(tokenizer.encode('word '.repeat(2000), 8)).to.deep.equal([101, ...Array(6).fill(id('word')), 102]);
  });
});
