import type { ParseProblem } from '../../errors/exceptions.js';
import type { ProcessModel } from '../model/process-model.js';
import { historyTimeToLiveOf, type TimeToLiveRules } from './history-time-to-live.js';
import type { ModdleElement } from './moddle-element.js';
import { readModdleDocument } from './moddle-reader.js';
import { ParseReport } from './parse-report.js';
import { buildProcessModel } from './process-model-builder.js';
import { checkActivities } from './validators/activity-rules.js';
import { checkDiagrams } from './validators/diagram-rules.js';
import { checkEventDefinitions } from './validators/event-definition-rules.js';
import { checkCompensation } from './validators/compensation-rules.js';
import { checkExclusiveGateways } from './validators/exclusive-gateway-rules.js';
import type { RuleContext } from './validators/rule-context.js';
import { checkSequenceFlows } from './validators/sequence-flow-rules.js';
import { checkStartEvents } from './validators/start-event-rules.js';
import { XmlPositions } from './xml-positions.js';

export interface BpmnParseResult {
  /** The definitions' targetNamespace. */
  targetNamespace: string | null;
  /** The executable processes, in document order. */
  processes: ProcessModel[];
  warnings: ParseProblem[];
  /** Whether the resource has a diagram (bpmndi) section. */
  diagramPresent: boolean;
}

export interface BpmnParseOptions extends TimeToLiveRules {
  /**
   * The resource was deployed already (a definition's model read again): its processes are built
   * even where a rule refuses them, since a rule added in a later version of Trellis must not make
   * a deployed definition, and its running instances, unusable. Only a resource that cannot be
   * read as BPMN at all still fails.
   */
  deployed?: boolean;
}

const DEFAULT_OPTIONS: BpmnParseOptions = { historyTimeToLive: null, enforceHistoryTimeToLive: false };

// The order in which Camunda's BpmnParse meets these problems.
const PROCESS_RULES = [checkStartEvents, checkActivities, checkEventDefinitions, checkCompensation, checkSequenceFlows, checkExclusiveGateways];

/**
 * Parses one BPMN 2.0 resource into immutable models of its executable processes.
 *
 * @throws ParseException (ENGINE-09005, with `details[resourceName]`) when the resource is not
 *   XML, not BPMN, or breaks a rule Camunda's parser enforces. A resource without an executable
 *   process is no error: like Camunda, it yields no process. Every problem is collected first;
 *   one exception carries them all, with line and column.
 */
export async function parseBpmnResource(
  resourceName: string,
  xml: string,
  options: BpmnParseOptions = DEFAULT_OPTIONS,
): Promise<BpmnParseResult> {
  const report = new ParseReport(resourceName, new XmlPositions(xml));
  const document = await readModdleDocument(xml, report);
  if (!document) {
    report.throwIfErrors();
    throw new Error('unreachable: moddle failed without a reported error');
  }
  const { definitions, references } = document;
  const context: RuleContext = { report, references };

  const executable = processesOf(definitions).filter((process) => isExecutable(process, report));
  const processes: ProcessModel[] = [];
  for (const process of executable) {
    const errorsBefore = report.errors.length;
    for (const rule of PROCESS_RULES) rule(process, context);
    const historyTimeToLive = historyTimeToLiveOf(process, report, options);
    if (report.errors.length > errorsBefore && !options.deployed) continue;
    processes.push(buildProcessModel({ process, definitions, historyTimeToLive, references, positions: report.positions }));
  }
  const result: BpmnParseResult = {
    targetNamespace: (definitions.targetNamespace as string | undefined) ?? null,
    processes,
    warnings: report.warnings,
    diagramPresent: ((definitions.diagrams ?? []) as unknown[]).length > 0,
  };
  if (options.deployed) return result;
  checkDiagrams(definitions, context);
  references.reportRemaining(report);
  report.throwIfErrors();
  return result;
}

const processesOf = (definitions: ModdleElement): ModdleElement[] =>
  ((definitions.rootElements ?? []) as ModdleElement[]).filter((element) => element.$type === 'bpmn:Process');

// Camunda's BpmnParse.parseProcessDefinitions reads isExecutable with Boolean.parseBoolean, and
// skips a process without the attribute in a new deployment (logging ENGINE-01002 / 01003); no
// engine setting changes that. (Reading a deployed resource again, Camunda takes a missing
// attribute as true, but such a process never got a definition, so nobody asks for its model.)
function isExecutable(process: ModdleElement, report: ParseReport): boolean {
  const id = process.id ?? null;
  const written = id === null ? undefined : report.positions.rawAttribute(id, 'isExecutable');
  if (written === undefined) {
    report.warning(
      `ENGINE-01003 Process with id '${id}' has no attribute isExecutable. Better set the attribute explicitly, ` +
        'especially to be compatible with future engine versions which might change the default behavior.',
      [id],
    );
    return false;
  }
  if (written.toLowerCase() === 'true') return true;
  report.warning(
    `ENGINE-01002 Ignoring non-executable process with id '${id}'. Set the attribute isExecutable="true" to deploy this process.`,
    [id],
  );
  return false;
}
