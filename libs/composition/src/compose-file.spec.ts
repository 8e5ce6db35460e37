import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { STAGE_NAMES } from './stages.js';

interface ComposeService {
  profiles?: string[];
  command?: string[];
  ports?: string[];
}

// No Docker engine runs here, so the compose file is read, not run: what it must keep in step with the code is checked.
const compose = parse(readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const STAGE_WORKER = 'apps/stage-worker/src/main.ts';

describe('docker-compose.yml', () => {
  it('runs every stage of the pipeline in the distributed profile, each once', () => {
    const stages = services.filter(([, service]) => service.command?.includes(STAGE_WORKER));
    expect(stages.map(([, service]) => service.command!.at(-1)).sort()).to.deep.equal([...STAGE_NAMES].sort());
    for (const [name, service] of stages) expect(service.profiles, name).to.deep.equal(['distributed']);
  });

  it('gives every service a profile, and each host port to one service of a profile', () => {
    const unprofiled = services.filter(([, service]) => !service.profiles?.length).map(([name]) => name);
    expect(unprofiled, 'a service without a profile starts beside every profile').to.deep.equal([]);
    const taken = new Map<string, string>();
    const clashes: string[] = [];
    for (const [name, service] of services) {
      for (const profile of service.profiles!) {
        for (const port of service.ports ?? []) {
          const key = `${profile} ${port.split(':').slice(0, -1).join(':')}`;
          if (taken.has(key)) clashes.push(`${key}: ${taken.get(key)} and ${name}`);
          else taken.set(key, name);
        }
      }
    }
    expect(clashes).to.deep.equal([]);
  });
});
