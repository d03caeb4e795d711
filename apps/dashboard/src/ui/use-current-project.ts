import { useOutletContext } from 'react-router';
import type { Project } from '../api/types';

/** The project of the page, loaded once by ProjectLayout (pages under /projects/:projectId). */
export const useCurrentProject = () => useOutletContext<Project>();
