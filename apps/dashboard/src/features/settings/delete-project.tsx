import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteProject } from '../../api/projects';
import type { Project } from '../../api/types';
import { useAnnounce } from '../../ui/announcer';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field } from '../../ui/field';

/** `Delete project`: the user types the project's name to confirm (GitHub's habit for what cannot be undone). */
export function DeleteProject({ project }: { project: Project }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteProject(project.id);
  const navigate = useNavigate();
  const announce = useAnnounce();
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        announce(`Project ${project.name} deleted`);
        void navigate('/projects', { replace: true });
      },
    });
  return (
    <section className="card danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Delete this project</h2>
      <p className="muted">Its endpoints stop answering at once; its keys, versions and logs are removed.</p>
      <div>
        <button type="button" className="button danger" onClick={() => { setTyped(''); remove.reset(); setOpen(true); }}>
          Delete project
        </button>
      </div>
      {open && (
        <ConfirmDialog
          title={`Delete project ${project.name}?`}
          onConfirm={confirm}
          onCancel={() => setOpen(false)}
          busy={remove.isPending}
          error={remove.error}
          canConfirm={typed === project.name}
        >
          <p>This cannot be undone. Type the project name to confirm.</p>
          <Field label="Project name" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} hint={`Type ${project.name}`} />
        </ConfirmDialog>
      )}
    </section>
  );
}
