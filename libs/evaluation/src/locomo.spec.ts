import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkQuestions, conversationTurns, readLocomoDir } from './index.js';

const conversation = {
  speaker_a: 'Caroline',
  speaker_b: 'Melanie',
  session_2_date_time: '1:14 pm on 25 May, 2023',
  session_2: [{ speaker: 'Melanie', dia_id: 'D2:1', text: 'I ran a charity race.' }],
  session_1_date_time: '1:56 pm on 8 May, 2023',
  session_1: [
    { speaker: 'Caroline', dia_id: 'D1:1', text: 'Hey Mel!' },
    { speaker: 'Melanie', dia_id: 'D1:2', text: 'Look.', img_url: ['http://x'], blip_caption: 'a painting of a lake' },
  ],
  // Dates of sessions that never happened are in the release too.
  session_3_date_time: '2:00 pm on 1 June, 2023',
  session_1_summary: 'ignored',
  qa: [
    { question: 'When did Melanie run a race?', answer: 'May 2023', evidence: ['D2:1'], category: 2 },
    { question: 'What did they talk about?', answer: 'x', evidence: ['D1:1; D2:1', 'D:1:2', 'D1:1'], category: 1 },
    { question: 'Broken evidence only', answer: 'x', evidence: ['D9:9'], category: 4 },
    { question: 'Something never said', adversarial_answer: 'x', evidence: [], category: 5 },
  ],
};

describe('LoCoMo files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'locomo-spec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the conversations of a folder with sessions in order, skipping other files', () => {
    writeFileSync(join(dir, '26.json'), JSON.stringify(conversation));
    writeFileSync(join(dir, 'README.md'), '# not a conversation');
    const [file, ...rest] = readLocomoDir(dir);
    expect(rest).to.have.length(0);
    expect(file!.stem).to.equal('26');
    expect(file!.sha256).to.match(/^[0-9a-f]{64}$/);
    const turns = conversationTurns(file!.conversation);
    expect(turns.map((t) => t.diaId)).to.deep.equal(['D1:1', 'D1:2', 'D2:1']);
    expect(turns[1]).to.include({ caption: 'a painting of a lake' });
    expect(turns[2]!.session.timestamp).to.equal('2023-05-25T13:14:00.000Z');
  });

  it('splits joined evidence, drops ids that name no turn, skips questions left with none', () => {
    writeFileSync(join(dir, '26.json'), JSON.stringify(conversation));
    const set = benchmarkQuestions(readLocomoDir(dir)[0]!.conversation);
    expect(set.questions.map((q) => [q.index, q.category, q.evidence])).to.deep.equal([
      [0, 2, ['D2:1']],
      [1, 1, ['D1:1', 'D2:1']],
    ]);
    expect(set.droppedEvidence).to.deep.equal([{ index: 1, id: 'D:1:2' }, { index: 2, id: 'D9:9' }]);
    expect(set.skipped.map((q) => q.index)).to.deep.equal([2]);
    expect(set.adversarial).to.equal(1);
  });

  it('names the file and the place of a problem', () => {
    writeFileSync(join(dir, '30.json'), JSON.stringify({ ...conversation, session_1_date_time: 'yesterday' }));
    expect(() => readLocomoDir(dir)).to.throw(/30\.json: session_1_date_time session date "yesterday"/);
    writeFileSync(join(dir, '30.json'), JSON.stringify({ ...conversation, session_2: [{ speaker: 'Mel', text: 'hi' }] }));
    expect(() => readLocomoDir(dir)).to.throw(/30\.json: session_2\[0\]\.dia_id must be a non-empty string/);
  });

  it('says what to do about a missing or empty folder', () => {
    expect(() => readLocomoDir(dir)).to.throw(/holds no \*\.json files/);
    expect(() => readLocomoDir(join(dir, 'nope'))).to.throw(/is not a folder: point --data/);
  });
});
