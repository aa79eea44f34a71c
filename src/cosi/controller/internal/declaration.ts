// Declaration checks shared by defineController and defineQController: the registration rules, applied early.
import type { Input, InputKind, Output } from '../controller.js';
import { ControllerError } from '../errors.js';
import { DependencyDatabase } from './dependency-db.js';

const q = (s: string): string => JSON.stringify(s);

/** validateDeclaration replays the declaration into a scratch dependency database, so the messages match registration. */
export function validateDeclaration(
  name: string,
  inputs: readonly Input[],
  outputs: readonly Output[],
  allowedKinds: readonly InputKind[],
): void {
  const invalid = (msg: string, cause?: unknown) =>
    new ControllerError('invalid-declaration', msg, cause === undefined ? undefined : { cause });
  if (typeof name !== 'string' || name === '') throw invalid('controller name is empty');
  for (const i of inputs) {
    if (!allowedKinds.includes(i.kind))
      throw invalid(`invalid input kind ${q(i.kind)} for controller ${q(name)}`);
    if (!i.type) throw invalid(`controller ${q(name)}: input type is empty`);
  }
  for (const o of outputs) if (!o.type) throw invalid(`controller ${q(name)}: output type is empty`);
  const db = new DependencyDatabase();
  try {
    for (const o of outputs) db.addOutput(name, o);
    for (const i of inputs) db.addInput(name, i);
  } catch (e) {
    throw invalid((e as Error).message, e);
  }
}
