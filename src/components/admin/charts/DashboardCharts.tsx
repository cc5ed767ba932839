/** The staff home's charts (issue 12), one self-contained block: drawn on the server, no JavaScript. */
import type { DashboardCharts as ChartsData } from '../../../domain/dashboard';
import { IncidentsWeekChart } from './IncidentsWeekChart';
import { ResolutionTime } from './ResolutionTime';
import { VisitsChart } from './VisitsChart';

export default function DashboardCharts({ charts }: { charts: ChartsData }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2" data-testid="graficos">
      <VisitsChart visits={charts.visits} />
      <IncidentsWeekChart weeks={charts.weeks} />
      <ResolutionTime current={charts.resolution.current} previous={charts.resolution.previous} />
    </div>
  );
}
