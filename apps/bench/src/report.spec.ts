import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchmarkQuestion } from '@memory/evaluation';
import { buildReport, reportText, writeReportJson } from './report.js';

describe('bench:locomo report', () => {
  const question = (index: number, category: 1 | 2 | 4, evidence: string[]): BenchmarkQuestion => ({ index, question: `q${index}`, category, evidence });
  const conversations = [
    { name: '26', questions: [question(0, 2, ['D1:1']), question(1, 4, ['D2:1'])] },
    { name: '30', questions: [question(0, 1, ['D1:1', 'D3:1'])] },
  ];
  const embedded = { name: 'system', ranked: [[['D1:1'], ['D2:5']], [['D1:1', 'D3:1']]] };
  const distributed = { name: 'distributed', ranked: [[['D1:1'], ['D2:1']], [['D3:1', 'D1:1']]] };
  const bm25 = { name: 'bm25', ranked: [[[], []], [[]]] };

  it('compares the two modes when both ran, and reports per conversation', () => {
    const report = buildReport(conversations, [embedded, distributed], [bm25], [10]);
    expect(report.agreement?.between).to.deep.equal(['system', 'distributed']);
    expect(report.agreement?.figures).to.include({ questions: 3, sameTurns: 2, sameOrder: 1 });
    expect(report.conversations).to.deep.equal([
      { name: '26', questions: 2, temporal: 1 },
      { name: '30', questions: 1, temporal: 0 },
    ]);
    const system = report.perConversation.find((s) => s.name === 'system')!;
    expect(system.perConversation.map((f) => f['any@10'])).to.deep.equal([0.5, 1]);
    expect(system.perConversation.map((f) => f['session R@5'])).to.deep.equal([1, 1]);
    expect(report.session.map((s) => s.figures.all['R@5'])).to.deep.equal([1, 1, 0]);
    expect(reportText(report)).to.include('system vs distributed, 3 questions, top 10:');
  });

  it('has no agreement with one mode', () => {
    const report = buildReport(conversations, [embedded], [bm25], [10]);
    expect(report.agreement).to.equal(null);
    expect(reportText(report)).not.to.include(' vs ');
  });

  it('writes the new figures beside the turn-level ones in --json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-report-'));
    try {
      writeReportJson(join(dir, 'out.json'), buildReport(conversations, [embedded, distributed], [bm25], [10]));
      const json = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
      expect(Object.keys(json)).to.deep.equal(['system', 'distributed', 'bm25', 'n', 'session', 'perConversation', 'agreement']);
      expect(json.system.all['any@10']).to.equal(2 / 3);
      expect(json.session.distributed.all).to.deep.equal({ 'R@5': 1, 'R@10': 1 });
      expect(json.perConversation.conversations).to.have.length(2);
      expect(json.perConversation.system['26']['any@10']).to.equal(0.5);
      expect(json.perConversation.system.all['all@10']).to.equal(2 / 3);
      expect(json.agreement.between).to.deep.equal(['system', 'distributed']);
      expect(json.agreement).to.include({ questions: 3, k: 10, sameTurns: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
